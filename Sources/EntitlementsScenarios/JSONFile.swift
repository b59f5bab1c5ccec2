import Entitlements

/// A JSON file as an editor saved it: what the tool's readers of files share, for scenario
/// files, catalogs and Apple's documents alike.
package enum JSONFile {
  /// The UTF-8 byte order mark, which some Windows editors write at the start of a file.
  static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// The bytes without a leading UTF-8 byte order mark: RFC 8259 §8.1 lets a reader ignore
  /// one, and a file saved by such an editor is no less JSON to its author.
  ///
  /// - Parameter bytes: The file's bytes.
  /// - Returns: The same bytes, after the mark when there is one.
  package static func withoutByteOrderMark<Bytes: Collection<UInt8>>(_ bytes: Bytes)
    -> Bytes.SubSequence
  {
    bytes.dropFirst(bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0)
  }

  /// A syntax error as an editor locates it: `line 2, column 9: expected a value`.
  ///
  /// - Parameters:
  ///   - error: The error, its offset into `bytes`.
  ///   - bytes: The bytes that were read.
  /// - Returns: The line, the column and what was expected.
  package static func describe(_ error: JSONSyntaxError, in bytes: [UInt8]) -> String {
    let (line, column) = error.position(in: bytes)
    return "line \(line), column \(column): \(error.message)"
  }
}
