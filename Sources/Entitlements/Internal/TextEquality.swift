extension String {
  /// Whether two strings are equal as `==` decides (Unicode canonical equivalence), answered
  /// from their UTF-8 bytes where that is exact: equal bytes are equal strings, and two ASCII
  /// strings with different bytes are different. Only other pairs go to `==`.
  ///
  /// `==` on two different strings of Apple's ids ("com.example.monthly" against
  /// "com.example.yearly") takes about 150 instructions: it orders them. A catalog lookup
  /// compares the entry's product id with each listed id until one matches.
  ///
  /// ```swift
  /// "com.example.monthly".isSameText(as: "com.example.yearly")  // false, from the bytes
  /// "\u{212A}".isSameText(as: "K")  // true: the Kelvin sign is canonically "K"
  /// ```
  @inline(__always)
  func isSameText(as other: String) -> Bool {
    let answer = utf8.withContiguousStorageIfAvailable { left in
      other.utf8.withContiguousStorageIfAvailable { right -> Bool? in
        if left.count == right.count, Self.bytesEqual(left, right) { return true }
        return Self.isASCII(left) && Self.isASCII(right) ? false : nil
      } ?? nil
    }
    return (answer ?? nil) ?? (self == other)
  }

  /// Whether two buffers of one length hold the same bytes: eight at a time.
  @inline(__always)
  private static func bytesEqual(
    _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    let (a, b) = (UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right))
    // One string, or two sharing their storage.
    if a.baseAddress == b.baseAddress { return true }
    var offset = 0
    while offset + 8 <= a.count {
      guard
        a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      else { return false }
      offset += 8
    }
    while offset < a.count {
      guard a[offset] == b[offset] else { return false }
      offset += 1
    }
    return true
  }

  /// Whether every byte is below 0x80.
  @inline(__always)
  private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var union: UInt8 = 0
    for byte in bytes { union |= byte }
    return union < 0x80
  }
}
