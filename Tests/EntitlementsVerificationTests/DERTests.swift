import Testing

@testable import EntitlementsVerification

/// The DER reader refuses what is not DER (X.690 §10), and the certificate parts read what
/// RFC 5280 says and refuse the rest.
@Suite("Strict DER")
struct DERTests {
  static func read(_ bytes: [UInt8]) throws(DERError) -> DERElement {
    var reader = DERReader(bytes[...])
    let element = try reader.read()
    try reader.finish("test")
    return element
  }

  struct Refused: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var testDescription: String { name }
  }

  static let refusedEncodings = [
    Refused(name: "indefinite length", bytes: [0x30, 0x80, 0x00, 0x00]),
    Refused(name: "long form for a short length", bytes: [0x04, 0x81, 0x01, 0x00]),
    Refused(
      name: "length with a leading zero",
      bytes: [0x04, 0x82, 0x00, 0x81] + [UInt8](repeating: 0, count: 0x81)),
    Refused(name: "length beyond the data", bytes: [0x04, 0x05, 0x00]),
    Refused(name: "length of five bytes", bytes: [0x04, 0x85, 1, 0, 0, 0, 0]),
    Refused(name: "high tag number", bytes: [0x1F, 0x81, 0x00, 0x00]),
    Refused(name: "no length", bytes: [0x04]),
    Refused(name: "nothing", bytes: []),
    Refused(name: "trailing byte", bytes: [0x05, 0x00, 0x00]),
  ]

  @Test(arguments: refusedEncodings)
  func nonDEREncodingsAreRefused(_ refused: Refused) {
    #expect(throws: DERError.self) { try Self.read(refused.bytes) }
  }

  @Test func lengthsInLongFormAreRead() throws {
    let content = [UInt8](repeating: 7, count: 200)
    let element = try Self.read([0x04, 0x81, 200] + content)
    #expect(Array(element.content) == content)
    #expect(element.encoded.count == 203)
  }

  @Test func integersMustBeMinimal() throws {
    #expect(try DERValues.integer(Self.read([0x02, 0x01, 0x00])) == [0x00])
    #expect(try DERValues.unsignedInteger(Self.read([0x02, 0x02, 0x00, 0x80])) == [0x80])
    #expect(throws: DERError.self) { try DERValues.integer(Self.read([0x02, 0x02, 0x00, 0x7F])) }
    #expect(throws: DERError.self) { try DERValues.integer(Self.read([0x02, 0x02, 0xFF, 0x80])) }
    #expect(throws: DERError.self) { try DERValues.integer(Self.read([0x02, 0x00])) }
    #expect(throws: DERError.self) { try DERValues.unsignedInteger(Self.read([0x02, 0x01, 0x80])) }
  }

  @Test func booleansAreZeroOrAllOnes() throws {
    #expect(try DERValues.boolean(Self.read([0x01, 0x01, 0xFF])))
    #expect(try !DERValues.boolean(Self.read([0x01, 0x01, 0x00])))
    #expect(throws: DERError.self) { try DERValues.boolean(Self.read([0x01, 0x01, 0x01])) }
    #expect(throws: DERError.self) { try DERValues.boolean(Self.read([0x01, 0x02, 0xFF, 0xFF])) }
  }

  @Test func namedBitStringsHaveNoTrailingZeros() throws {
    // digitalSignature: 03 02 07 80; keyCertSign + cRLSign: 03 02 01 06.
    #expect(try DERValues.namedBits(Self.read([0x03, 0x02, 0x07, 0x80])) == [true])
    let ca = try DERValues.namedBits(Self.read([0x03, 0x02, 0x01, 0x06]))
    #expect(ca == [false, false, false, false, false, true, true])
    #expect(throws: DERError.self) { try DERValues.namedBits(Self.read([0x03, 0x02, 0x06, 0x80])) }
    #expect(throws: DERError.self) { try DERValues.namedBits(Self.read([0x03, 0x02, 0x07, 0x81])) }
    #expect(throws: DERError.self) { try DERValues.namedBits(Self.read([0x03, 0x01, 0x08])) }
    #expect(throws: DERError.self) {
      try DERValues.octetAlignedBits(Self.read([0x03, 0x02, 0x01, 0x00]))
    }
  }

  @Test func objectIdentifiers() throws {
    let apple = try DERValues.objectIdentifier(Self.read([0x06, 0x0A] + OID.appleLeaf.der))
    #expect(apple == .appleLeaf)
    #expect(apple.description == "1.2.840.113635.100.6.11.1")
    #expect(OID.secp384r1.description == "1.3.132.0.34")
    #expect(throws: DERError.self) {
      try DERValues.objectIdentifier(Self.read([0x06, 0x02, 0x80, 0x01]))
    }
    #expect(throws: DERError.self) {
      try DERValues.objectIdentifier(Self.read([0x06, 0x01, 0x81]))
    }
    #expect(throws: DERError.self) { try DERValues.objectIdentifier(Self.read([0x06, 0x00])) }
  }

  struct Time: CustomTestStringConvertible, Sendable {
    var text: String
    var tag: UInt8
    var seconds: Int64?
    var testDescription: String { text }
  }

  static let times = [
    Time(text: "250101000000Z", tag: DERTag.utcTime, seconds: 1_735_689_600),
    Time(text: "500101000000Z", tag: DERTag.utcTime, seconds: -631_152_000),
    Time(text: "491231235959Z", tag: DERTag.utcTime, seconds: 2_524_607_999),
    Time(text: "20550101000000Z", tag: DERTag.generalizedTime, seconds: 2_682_374_400),
    Time(text: "20240229120000Z", tag: DERTag.generalizedTime, seconds: 1_709_208_000),
    Time(text: "20230229120000Z", tag: DERTag.generalizedTime, seconds: nil),
    Time(text: "2501010000Z", tag: DERTag.utcTime, seconds: nil),
    Time(text: "250101000000+0100", tag: DERTag.utcTime, seconds: nil),
    Time(text: "20250101000000.5Z", tag: DERTag.generalizedTime, seconds: nil),
    Time(text: "251301000000Z", tag: DERTag.utcTime, seconds: nil),
    Time(text: "250101246000Z", tag: DERTag.utcTime, seconds: nil),
    Time(text: "25010100000AZ", tag: DERTag.utcTime, seconds: nil),
  ]

  @Test(arguments: times)
  func timesAreReadOrRefused(_ time: Time) throws {
    let bytes = Array(time.text.utf8)
    let element = try Self.read([time.tag, UInt8(bytes.count)] + bytes)
    if let seconds = time.seconds {
      #expect(try DERValues.time(element) == seconds)
    } else {
      #expect(throws: DERError.self) { try DERValues.time(element) }
    }
  }

  @Test func basicConstraintsOmitTheDefault() throws {
    #expect(try BasicConstraints(der: [0x30, 0x00][...]).isCertificateAuthority == false)
    let ca = try BasicConstraints(der: [0x30, 0x06, 0x01, 0x01, 0xFF, 0x02, 0x01, 0x00][...])
    #expect(ca.isCertificateAuthority && ca.pathLength == 0)
    #expect(throws: DERError.self) {
      try BasicConstraints(der: [0x30, 0x03, 0x01, 0x01, 0x00][...])
    }
    #expect(throws: DERError.self) { try BasicConstraints(der: [0x30, 0x00, 0x00][...]) }
  }

  /// Extensions: critical FALSE spelled out, a duplicate, an empty list are refused.
  @Test func extensionsAreStrict() throws {
    func extensions(_ items: [[UInt8]]) throws(DERError) -> CertificateExtensions {
      let body = items.flatMap { $0 }
      let list = [0x30, UInt8(body.count)] + body
      let explicit = [0xA3, UInt8(list.count)] + list
      return try CertificateExtensions(der: DERTests.read(explicit))
    }
    let basic: [UInt8] = [
      0x30, 0x0C, 0x06, 0x03, 0x55, 0x1D, 0x13, 0x01, 0x01, 0xFF, 0x04, 0x02, 0x30, 0x00,
    ]
    let apple: [UInt8] = [0x30, 0x10, 0x06, 0x0A] + OID.appleLeaf.der + [0x04, 0x02, 0x05, 0x00]
    let read = try extensions([basic, apple])
    #expect(read.basicConstraints?.isCertificateAuthority == false)
    #expect(read.identifiers.contains(.appleLeaf))
    #expect(read.unknownCritical.isEmpty)
    let unknownCritical: [UInt8] = [
      0x30, 0x0B, 0x06, 0x03, 0x2A, 0x03, 0x04, 0x01, 0x01, 0xFF, 0x04, 0x01, 0x00,
    ]
    #expect(try extensions([unknownCritical]).unknownCritical.map(\.description) == ["1.2.3.4"])
    let criticalFalse: [UInt8] = [
      0x30, 0x0B, 0x06, 0x03, 0x2A, 0x03, 0x04, 0x01, 0x01, 0x00, 0x04, 0x01, 0x00,
    ]
    #expect(throws: DERError.self) { try extensions([criticalFalse]) }
    #expect(throws: DERError.self) { try extensions([apple, apple]) }
    #expect(throws: DERError.self) { try extensions([]) }
  }

  @Test func ecdsaAlgorithmsCarryNoParameters() throws {
    let sha256 = [0x30, 0x0A, 0x06, 0x08] + OID.ecdsaWithSHA256.der
    #expect(try SignatureAlgorithm(Self.read(sha256)) == .ecdsaWithSHA256)
    let withNull = [0x30, 0x0C, 0x06, 0x08] + OID.ecdsaWithSHA384.der + [0x05, 0x00]
    #expect(throws: DERError.self) { try SignatureAlgorithm(Self.read(withNull)) }
  }

  /// DER ECDSA signatures: exactly two minimal non-negative integers of the curve's size.
  @Test func derSignatures() {
    let r: [UInt8] = [0x02, 0x01, 0x01]
    #expect(ECDSASignature.der([0x30, 0x06] + r + r, byteCount: 32) != nil)
    #expect(ECDSASignature.der([0x30, 0x06] + r + r + [0x00], byteCount: 32) == nil)
    #expect(ECDSASignature.der([0x30, 0x09] + r + r + [0x02, 0x01, 0x01], byteCount: 32) == nil)
    #expect(ECDSASignature.der([0x30, 0x81, 0x06] + r + r, byteCount: 32) == nil)
    let large = [0x02, 0x21, 0x01] + [UInt8](repeating: 0, count: 32)
    #expect(ECDSASignature.der([0x30, 0x26] + large + r, byteCount: 32) == nil)
    let padded = [0x02, 0x21, 0x00, 0x80] + [UInt8](repeating: 0, count: 31)
    #expect(ECDSASignature.der([0x30, 0x26] + padded + r, byteCount: 32) != nil)
    #expect(ECDSASignature.raw([UInt8](repeating: 1, count: 63), byteCount: 32) == nil)
  }
}
