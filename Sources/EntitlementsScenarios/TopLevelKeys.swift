#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds whether a JSON object's top level has the keys `name` and `expect`, in one pass over
/// its bytes with no parse and no copy (``Scenario/missingScenarioKeys(_:)``). Not a
/// validator: bytes that are not JSON may pass here and fail when read.
enum TopLevelKeys {
  /// Whether `"expect"` occurs anywhere in the bytes: its rare `x` found with `memchr`, the
  /// bytes around each compared.
  static func mentionsExpect(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    let needle = Array(#""expect""#.utf8)  // `x` at offset 2
    var offset = 2
    while offset + 6 <= bytes.count,
      let found = memchr(base + offset, Int32(UInt8(ascii: "x")), bytes.count - offset)
    {
      let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      if index >= 2, index + 6 <= bytes.count,
        UnsafeBufferPointer(rebasing: bytes[(index - 2)..<(index + 6)]).elementsEqual(needle)
      {
        return true
      }
      offset = index + 1
    }
    return false
  }

  /// Whether `name` and `expect` are keys of the top-level object; `nil` when the bytes are
  /// not an object (after white space and a byte order mark).
  static func find(in bytes: UnsafeBufferPointer<UInt8>) -> (name: Bool, expect: Bool)? {
    var index = JSONFile.withoutByteOrderMark(bytes).startIndex
    skipSpace(bytes, &index)
    guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
    index += 1
    var found = (name: false, expect: false)
    while index < bytes.count {
      skipSpace(bytes, &index)
      guard index < bytes.count else { break }
      switch bytes[index] {
      case UInt8(ascii: "}"):
        return found
      case UInt8(ascii: ","):
        index += 1
      case UInt8(ascii: "\""):
        // A key: compared as its bytes, the usual key having no escape.
        let start = index + 1
        skipString(bytes, &index)
        let key = UnsafeBufferPointer(rebasing: bytes[start..<max(start, index - 1)])
        if key.elementsEqual("name".utf8) { found.name = true }
        if key.elementsEqual("expect".utf8) { found.expect = true }
        if found.name && found.expect { return found }
        skipSpace(bytes, &index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return found }
        index += 1
        skipSpace(bytes, &index)
        skipValue(bytes, &index)
      default:
        return found
      }
    }
    return found
  }

  private static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) {
    while index < bytes.count,
      bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
    {
      index += 1
    }
  }

  /// Past the string whose opening quote is at `index`.
  private static func skipString(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) {
    index += 1
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""):
        index += 1
        return
      default: index += 1
      }
    }
  }

  /// Past the value at `index`: a string, or an array or object by depth, or a scalar.
  private static func skipValue(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) {
    var depth = 0
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        skipString(bytes, &index)
        if depth == 0 { return }
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        index += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if depth == 0 { return }  // the end of the top level: its caller's
        depth -= 1
        index += 1
        if depth == 0 { return }
      case UInt8(ascii: ","):
        if depth == 0 { return }
        index += 1
      default:
        index += 1
      }
    }
  }
}
