/// The key usage extension: what the certified key may do (RFC 5280 §4.2.1.3).
struct KeyUsage: Hashable, Sendable {
  /// The named bits set, bit 0 (digitalSignature) first.
  var bits: [Bool]

  /// `digitalSignature` (bit 0).
  var digitalSignature: Bool { bits.first ?? false }
  /// `keyCertSign` (bit 5): the key may sign certificates.
  var keyCertSign: Bool { bits.count > 5 && bits[5] }

  /// The usage of an extension's value, a named-bit BIT STRING with at least one bit set.
  init(der value: ArraySlice<UInt8>) throws(DERError) {
    var reader = DERReader(value)
    bits = try DERValues.namedBits(reader.read(DERTag.bitString, "key usage"))
    try reader.finish("key usage")
    guard bits.contains(true) else { throw DERError("key usage with no bit set") }
  }
}
