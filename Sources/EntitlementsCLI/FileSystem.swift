// The command line tool may use full Foundation (directory walking, error descriptions);
// the libraries below it use FoundationEssentials only (DESIGN.md).
import Foundation

#if canImport(Glibc)
  import Glibc
  private let systemRead = Glibc.read
#elseif canImport(Darwin)
  import Darwin
  private let systemRead = Darwin.read
#endif

/// The command's file access: the only I/O of the tool, kept out of the libraries.
enum FileSystem {
  /// Why a file could not be read: the system's words (`No such file or directory`).
  struct Failure: LocalizedError, CustomStringConvertible {
    let code: Int32
    /// For a file past ``maximumBytes``: the limit it passed.
    var limit: Int?
    init(code: Int32, limit: Int? = nil) {
      self.code = code
      self.limit = limit
    }
    var errorDescription: String? {
      if let limit {
        return "larger than \(limit) bytes, the most a file may hold"
      }
      return code == EISDIR ? "is a folder, not a file" : String(cString: strerror(code))
    }
    /// The same words wherever it is printed, `\(error)` included.
    var description: String { errorDescription ?? "error \(code)" }
  }

  /// The most bytes a file given to the tool may hold, unless `--max-bytes` says otherwise:
  /// far more than any real subscriber's documents (Apple's largest verifyReceipt responses
  /// are tens of megabytes), and a clean refusal for a runaway input (`/dev/zero`).
  static let defaultMaximumBytes = 256 << 20

  /// The bytes of the file at `path`, read straight into the array (one copy, from the
  /// kernel: an 80 MB document is not held twice); a file of more than `limit` bytes is
  /// refused (``Failure``) before it is read whole.
  static func read(_ path: String, limit: Int = defaultMaximumBytes) throws -> [UInt8] {
    try withOpenFile(path) { descriptor, status in
      guard Int(status.st_size) <= limit else { throw Failure(code: EFBIG, limit: limit) }
      return try readToEnd(descriptor, sizeHint: Int(status.st_size), limit: limit)
    }
  }

  /// The bytes of the file at `path`, mapped from the system's cache of the file rather than
  /// copied, when it is a regular file that is not empty and can be mapped; any other file (a
  /// pipe, a device, a file of a file system that cannot map it) is read as ``read(_:)``
  /// reads it.
  ///
  /// For Apple's documents, which the document reader reads in place: an 80 MB
  /// verifyReceipt response read into fresh memory costs a page fault per 4 KB page and a
  /// copy, a fifth of `explain`'s time (DESIGN.md "Performance"). The mapping shows the file
  /// as it is while it is read: a file truncated by another process meanwhile ends the process.
  static func mapped(_ path: String, limit: Int = defaultMaximumBytes) throws -> Data {
    try withOpenFile(path) { descriptor, status in
      guard Int(status.st_size) <= limit else { throw Failure(code: EFBIG, limit: limit) }
      if (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0,
        let mapped = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
      {
        return mapped
      }
      return Data(try readToEnd(descriptor, sizeHint: Int(status.st_size), limit: limit))
    }
  }

  /// Calls `body` with the file at `path` opened for reading and its status; a folder is
  /// refused.
  private static func withOpenFile<Result>(
    _ path: String, _ body: (_ descriptor: Int32, _ status: stat) throws -> Result
  ) throws -> Result {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw Failure(code: errno) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw Failure(code: errno) }
    guard (status.st_mode & S_IFMT) != S_IFDIR else { throw Failure(code: EISDIR) }
    return try body(descriptor, status)
  }

  /// Everything left to read from `descriptor`; `sizeHint` sizes the first read (a pipe or a
  /// growing file may hold more); past `limit` bytes, refused.
  private static func readToEnd(_ descriptor: Int32, sizeHint: Int, limit: Int) throws
    -> [UInt8]
  {
    var bytes = [UInt8]()
    var capacity = max(min(sizeHint, limit) + 1, 1 << 16)
    while true {
      guard bytes.count <= limit else { throw Failure(code: EFBIG, limit: limit) }
      let before = bytes.count
      let chunk = try [UInt8](unsafeUninitializedCapacity: capacity - before) { buffer, count in
        count = 0
        while count < buffer.count {
          let read = try readOnce(
            descriptor, into: UnsafeMutableBufferPointer(rebasing: buffer[count...]))
          guard read > 0 else { return }
          count += read
        }
      }
      if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
      guard bytes.count <= limit else { throw Failure(code: EFBIG, limit: limit) }
      if bytes.count < capacity { return bytes }
      // Never more room than the limit and one byte: what fills it is refused.
      guard capacity <= limit else { throw Failure(code: EFBIG, limit: limit) }
      capacity = min(capacity * 2, limit < Int.max ? limit + 1 : Int.max)
    }
  }

  /// One read of up to `buffer.count` bytes from `descriptor` into `buffer`, retried when
  /// interrupted: how many bytes came, 0 at the end.
  ///
  /// - Throws: ``Failure``, with the system's words.
  static func readOnce(_ descriptor: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>) throws
    -> Int
  {
    while true {
      let read = systemRead(descriptor, buffer.baseAddress, buffer.count)
      if read >= 0 { return read }
      guard errno == EINTR else { throw Failure(code: errno) }
    }
  }

  static func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  static func isDirectory(_ path: String) -> Bool {
    var directory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &directory)
      && directory.boolValue
  }

  static func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
  }

  /// Whether two paths name one file: the same file when both exist (device and inode, so
  /// that `./a.json`, `a.json` and a link to it are one), else the same standardized path.
  static func isSameFile(_ a: String, _ b: String) -> Bool {
    var first = stat()
    var second = stat()
    if stat(a, &first) == 0, stat(b, &second) == 0 {
      return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
    return URL(fileURLWithPath: a).standardizedFileURL.path
      == URL(fileURLWithPath: b).standardizedFileURL.path
  }

  /// Scenario files under a folder: `*.json` except `*.schema.json`, sorted.
  static func scenarioFiles(under folder: String) -> [String] {
    let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    let paths = (FileManager.default.subpaths(atPath: base) ?? [])
      .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }
      .sorted()
    return paths.map { "\(base)/\($0)" }
  }
}
