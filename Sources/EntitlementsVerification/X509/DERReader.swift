/// One DER element: a tag, and its contents.
struct DERElement: Sendable {
  /// The identifier octet (class, constructed bit, tag number below 31).
  var tag: UInt8
  /// The contents octets.
  var content: ArraySlice<UInt8>
  /// The whole encoding: identifier, length and contents (what a signature covers).
  var encoded: ArraySlice<UInt8>
}

/// The tags this verifier meets.
enum DERTag {
  static let boolean: UInt8 = 0x01
  static let integer: UInt8 = 0x02
  static let bitString: UInt8 = 0x03
  static let octetString: UInt8 = 0x04
  static let null: UInt8 = 0x05
  static let objectIdentifier: UInt8 = 0x06
  static let utcTime: UInt8 = 0x17
  static let generalizedTime: UInt8 = 0x18
  static let sequence: UInt8 = 0x30
  static let set: UInt8 = 0x31

  /// `[number]` of an explicitly tagged (constructed) field.
  static func explicit(_ number: UInt8) -> UInt8 { 0xA0 | number }
  /// `[number]` of an implicitly tagged primitive field.
  static func implicitPrimitive(_ number: UInt8) -> UInt8 { 0x80 | number }
}

/// Reads DER elements one after another from a byte string, strictly: definite minimal
/// lengths, low tag numbers, nothing missing (X.690 §8.1, §10.1).
///
/// ```swift
/// var reader = DERReader([0x02, 0x01, 0x05][...])
/// try reader.read(DERTag.integer).content  // [0x05]
/// reader.isAtEnd  // true
/// ```
struct DERReader {
  private var bytes: ArraySlice<UInt8>

  /// A reader of `bytes`.
  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
  }

  /// Whether every element has been read.
  var isAtEnd: Bool { bytes.isEmpty }

  /// The tag of the next element, if any.
  var nextTag: UInt8? { bytes.first }

  /// The next element.
  mutating func read() throws(DERError) -> DERElement {
    let start = bytes.startIndex
    guard let tag = bytes.first else { throw DERError("ends before an element") }
    guard tag & 0x1F != 0x1F else { throw DERError("high tag number") }
    var index = start + 1
    guard index < bytes.endIndex else { throw DERError("ends before a length") }
    let first = bytes[index]
    index += 1
    var length = 0
    if first < 0x80 {
      length = Int(first)
    } else {
      let count = Int(first & 0x7F)
      guard count != 0 else { throw DERError("indefinite length") }
      guard count <= 4 else { throw DERError("length too long") }
      guard bytes.endIndex - index >= count else { throw DERError("ends inside a length") }
      guard bytes[index] != 0 else { throw DERError("length not minimal") }
      for _ in 0..<count {
        length = length << 8 | Int(bytes[index])
        index += 1
      }
      guard length >= 0x80 else { throw DERError("length not minimal") }
    }
    guard bytes.endIndex - index >= length else { throw DERError("length beyond the data") }
    let end = index + length
    let element = DERElement(
      tag: tag, content: bytes[index..<end], encoded: bytes[start..<end])
    bytes = bytes[end...]
    return element
  }

  /// The next element, which must have `tag`.
  mutating func read(_ tag: UInt8, _ what: @autoclosure () -> String = "an element")
    throws(DERError) -> DERElement
  {
    guard let next = nextTag else { throw DERError("\(what()) is missing") }
    guard next == tag else {
      throw DERError("\(what()): tag 0x\(String(next, radix: 16)), not 0x\(String(tag, radix: 16))")
    }
    return try read()
  }

  /// The next element if it has `tag`, else nil (an OPTIONAL or DEFAULT field).
  mutating func readIfPresent(_ tag: UInt8) throws(DERError) -> DERElement? {
    guard nextTag == tag else { return nil }
    return try read()
  }

  /// Fails unless every element has been read.
  func finish(_ what: @autoclosure () -> String) throws(DERError) {
    guard isAtEnd else { throw DERError("\(what()): trailing bytes") }
  }
}
