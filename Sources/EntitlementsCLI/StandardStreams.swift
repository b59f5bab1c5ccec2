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
  /// A reader of standard input for ``BatchEvaluation/run(jobs:read:write:progress:)``.
  static func standardInput() -> BatchEvaluation.Read {
    reader(of: FileHandle.standardInput)
  }

  /// Whether standard input has something to read within a time.
  static func standardInputWaiter() -> BatchEvaluation.Wait {
    waiter(of: FileHandle.standardInput)
  }

  /// A reader of `file`: each call reads once into the buffer it is given (no copy) and says
  /// how many bytes came, 0 at the end; it throws the system's error when the file cannot be
  /// read.
  static func reader(of file: FileHandle) -> BatchEvaluation.Read {
    { buffer in try FileSystem.readOnce(file.fileDescriptor, into: buffer) }
  }

  /// Whether `file` has input to read (or has ended) within a time: `poll`, so a file is
  /// always ready and a pipe that pauses is not.
  static func waiter(of file: FileHandle) -> BatchEvaluation.Wait {
    let descriptor = file.fileDescriptor
    return { milliseconds in
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      while true {
        let ready = poll(&request, 1, milliseconds)
        if ready < 0, errno == EINTR { continue }
        // An error is for the read to report: say ready.
        return ready != 0
      }
    }
  }

  /// Writes all of `bytes` to a file descriptor, retrying when interrupted or when a
  /// non-blocking pipe is full. Output that cannot be written stops the process with status 2
  /// and says why: a batch whose answers are lost must not exit as if they were written.
  static func write(_ bytes: [UInt8], to descriptor: Int32) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let written = systemWrite(descriptor, base + offset, buffer.count - offset)
        if written > 0 {
          offset += written
          continue
        }
        if written < 0, errno == EINTR { continue }
        if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
          usleep(1_000)
          continue
        }
        let reason = written < 0 ? String(cString: strerror(errno)) : "nothing written"
        if descriptor != 2 {
          let message = Array("entitlements: cannot write output: \(reason)\n".utf8)
          _ = message.withUnsafeBytes { systemWrite(2, $0.baseAddress, $0.count) }
        }
        exit(2)
      }
    }
  }

  static func writeOutput(_ bytes: [UInt8]) { write(bytes, to: 1) }
  static func writeError(_ bytes: [UInt8]) { write(bytes, to: 2) }

  /// Whether standard error is a terminal (for the progress line).
  static var errorIsTerminal: Bool { isatty(2) != 0 }
}
