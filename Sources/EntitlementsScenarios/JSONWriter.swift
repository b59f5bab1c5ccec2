import Entitlements

/// Writes JSON as it goes, into bytes, with no tree: what `explain --json` and the batch
/// `evaluate` command write (issue: whole-process speed). The caller writes object keys in
/// sorted order, so the same value always gives the same bytes.
///
/// ```swift
/// var writer = JSONWriter(indent: 0)
/// writer.beginObject()
/// writer.key("a"); writer.null()
/// writer.key("b"); writer.bool(true)
/// writer.endObject()
/// String(decoding: writer.bytes, as: UTF8.self)  // {"a":null,"b":true}
/// ```
package struct JSONWriter {
  /// The JSON written so far.
  package private(set) var bytes: [UInt8] = []
  /// Spaces per level; 0 writes one line.
  private let indent: Int
  /// For each open container: how many members it has so far.
  private var counts: [Int] = []
  /// Whether a key was written last: its value takes no separator.
  private var afterKey = false

  /// A writer indenting `indent` spaces per level (0: one line).
  package init(indent: Int = 0, capacity: Int = 0) {
    self.indent = indent
    bytes.reserveCapacity(capacity)
  }

  private mutating func newline(level: Int) {
    guard indent > 0 else { return }
    bytes.append(0x0A)
    bytes.append(contentsOf: repeatElement(0x20, count: indent * level))
  }

  /// Before a value: the separator and the indentation, when inside an array.
  private mutating func beforeElement() {
    guard let count = counts.last else { return }
    if count > 0 { bytes.append(UInt8(ascii: ",")) }
    newline(level: counts.count)
    counts[counts.count - 1] += 1
  }

  /// Opens an object (a value: at the top, after ``key(_:)``, or inside an array).
  package mutating func beginObject() {
    beginValue()
    bytes.append(UInt8(ascii: "{"))
    counts.append(0)
  }

  /// Closes the object opened last.
  package mutating func endObject() { end(UInt8(ascii: "}")) }

  /// Opens an array (a value: at the top, after ``key(_:)``, or inside another array).
  package mutating func beginArray() {
    beginValue()
    bytes.append(UInt8(ascii: "["))
    counts.append(0)
  }

  /// Closes the array opened last.
  package mutating func endArray() { end(UInt8(ascii: "]")) }

  private mutating func end(_ byte: UInt8) {
    let count = counts.removeLast()
    if count > 0 { newline(level: counts.count) }
    bytes.append(byte)
  }

  /// A member's key, inside an object; its value follows. A key is one of the program's own
  /// names, plain text that needs no escape, written as it is: keys are most of what
  /// `evaluate` writes.
  package mutating func key(_ name: StaticString) {
    beforeElement()
    bytes.append(UInt8(ascii: "\""))
    name.withUTF8Buffer { name in
      assert(name.allSatisfy(Self.isPlain), "a key that needs an escape")
      bytes.append(contentsOf: name)
    }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
    if indent > 0 { bytes.append(0x20) }
    // The value that follows is the member's: it takes no separator of its own.
    afterKey = true
  }

  /// Before any value: inside an array, the separator; after a key, nothing.
  private mutating func beginValue() {
    if afterKey {
      afterKey = false
    } else {
      beforeElement()
    }
  }

  /// A string value.
  package mutating func string(_ text: String) {
    beginValue()
    quoted(text)
  }

  /// A number value, written as `text` (already JSON).
  package mutating func number(_ text: String) {
    beginValue()
    bytes.append(contentsOf: text.utf8)
  }

  /// An integer value.
  package mutating func integer(_ value: Int) { number(String(value)) }

  /// A boolean value.
  package mutating func bool(_ value: Bool) { number(value ? "true" : "false") }

  /// `null`.
  package mutating func null() { number("null") }

  /// A string, or `null` for `nil`.
  package mutating func string(_ text: String?) {
    if let text { string(text) } else { null() }
  }

  /// An instant in RFC 3339 UTC, or `null` for `nil` or for the end of time.
  package mutating func instant(_ value: Instant?) {
    guard let value, !value.isDistantFuture else { return null() }
    guard value != .distantPast else { return string(value.description) }
    // Its digits written in place: no `String` made and scanned for escapes.
    beginValue()
    bytes.append(UInt8(ascii: "\""))
    value.appendRFC3339(to: &bytes)
    bytes.append(UInt8(ascii: "\""))
  }

  /// `{"start": …, "end": …}`.
  package mutating func interval(_ value: Interval) {
    beginObject()
    key("end")
    instant(value.end)
    key("start")
    instant(value.start)
    endObject()
  }

  /// Whether a byte is written as it is in a JSON string.
  private static func isPlain(_ byte: UInt8) -> Bool {
    byte >= 0x20 && byte != 0x22 && byte != 0x5C
  }

  private mutating func quoted(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    // Most text needs no escape: appended at once.
    let plain: Bool? = text.utf8.withContiguousStorageIfAvailable { utf8 in
      guard utf8.allSatisfy(Self.isPlain) else { return false }
      bytes.append(contentsOf: utf8)
      return true
    }
    if plain == true {
      bytes.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
      case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0..<0x20:
        let digits = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
        bytes.append(digits[Int(byte >> 4)])
        bytes.append(digits[Int(byte & 0xF)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
