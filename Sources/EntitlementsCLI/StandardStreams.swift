// The command line tool may use full Foundation; the libraries below it do not.
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(Glibc)
  private let systemWrite = Glibc.write
#elseif canImport(Darwin)
  private let systemWrite = Darwin.write
#endif

/// The process's standard streams, read and written in chunks of bytes.
enum StandardStreams {
  /// How many bytes a read asks for.
  static let chunkSize = 4 << 20

  /// A reader of standard input: the next chunk, or `nil` at the end.
  static func standardInput() -> () throws -> [UInt8]? {
    { try chunk(of: FileHandle.standardInput) }
  }

  /// The next chunk of `file`, or `nil` at its end.
  ///
  /// - Throws: The system's error when the file cannot be read.
  static func chunk(of file: FileHandle) throws -> [UInt8]? {
    guard let data = try file.read(upToCount: chunkSize), !data.isEmpty else { return nil }
    return Array(data)
  }

  /// Writes all of `bytes` to a file descriptor.
  static func write(_ bytes: [UInt8], to descriptor: Int32) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let written = systemWrite(descriptor, base + offset, buffer.count - offset)
        guard written > 0 else { return }
        offset += written
      }
    }
  }

  static func writeOutput(_ bytes: [UInt8]) { write(bytes, to: 1) }
  static func writeError(_ bytes: [UInt8]) { write(bytes, to: 2) }

  /// Whether standard error is a terminal (for the progress line).
  static var errorIsTerminal: Bool { isatty(2) != 0 }
}
