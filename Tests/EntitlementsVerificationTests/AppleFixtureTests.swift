import Entitlements
import EntitlementsVerification
import Foundation
import Testing

/// Every real JWS Apple signed under `../shared/fixtures` (read in place; the suite is skipped
/// without it): notifications with their nested transaction and renewal info, and transactions
/// an app sent, verify against the pinned Apple Root CA - G3 at their `signedDate`, except the
/// two stored copies whose signature was truncated (MANIFEST: geniusparenting-strapi rows 99
/// and 100). Apple's test payloads verify against Apple's test CA, pinned here, and neither
/// they nor Xcode's verify against Apple's root.
@Suite(
  "Apple's signed data (fixtures)",
  .enabled(if: SharedData.fixturesArePresent, Comment(rawValue: SharedData.fixturesMissingNote)))
struct AppleFixtureTests {
  struct Document: CustomTestStringConvertible, Sendable {
    var file: String
    var bundleId: String
    var testDescription: String { file }
  }

  static let documents = [
    Document(
      file: "notifications_v2/session-pro-backend/documents.json",
      bundleId: "com.loki-project.loki-messenger"),
    Document(
      file: "notifications_v2/geniusparenting-strapi/documents.json", bundleId: "GeniusParentingAI"),
    Document(file: "notifications_v2/soulmate-server/documents.json", bundleId: "cn.soulmate.elf"),
    Document(
      file: "notifications_v2/odeme-entegrasyonu/documents.json", bundleId: "com.armakom.qring.net"
    ),
    Document(
      file: "jws_v2/session-pro-backend__sandbox_v2_notification_sequences.json",
      bundleId: "com.loki-project.loki-messenger"),
  ]

  /// Every compact JWS in a JSON value, with its path.
  static func signedStrings(in value: Any, path: String = "") -> [(path: String, jws: String)] {
    if let object = value as? [String: Any] {
      return object.keys.sorted().flatMap {
        signedStrings(in: object[$0] ?? 0, path: path + "." + $0)
      }
    }
    if let array = value as? [Any] {
      return array.enumerated().flatMap { signedStrings(in: $1, path: path + "[\($0)]") }
    }
    if let text = value as? String, text.hasPrefix("eyJ"), text.split(separator: ".").count == 3 {
      return [(path, text)]
    }
    return []
  }

  @Test(arguments: documents)
  func everyJWSVerifiesAgainstApplesRoot(_ document: Document) throws {
    let root = try JSONSerialization.jsonObject(with: SharedData.fixture(document.file))
    let verifier = AppStoreSignatureVerifier(bundleId: document.bundleId, environment: .sandbox)
    var verified = 0
    var nestedVerified = 0
    var failures: [String] = []
    for (path, jws) in Self.signedStrings(in: root) {
      do {
        let payload = try verifier.verify(jws)
        #expect(payload.certificateChain.count == 3)
        #expect(payload.validAt == payload.signedDate)
        if payload.isNotification {
          let notification = try verifier.verifyNotification(jws)
          nestedVerified +=
            [notification.transaction, notification.renewalInfo]
            .compactMap { $0 }.count
        }
        verified += 1
      } catch {
        failures.append("\(path): \(error)")
      }
    }
    if document.file.contains("geniusparenting") {
      // Rows 99 and 100 of the dump: a 78-character signature (58 bytes).
      let rows = try #require((root as? [String: Any])?["apple_notifications"] as? [[String: Any]])
      let truncated = rows.enumerated().filter { ["99", "100"].contains($1["row_id"] as? String) }
        .map { ".apple_notifications[\($0.offset)].jws" }
      #expect(truncated.count == 2)
      #expect(
        failures.sorted()
          == truncated.sorted().map {
            "\($0): malformed: the JWS signature is 58 bytes, expected 64 (r ‖ s)"
          })
    } else {
      #expect(failures.isEmpty, "\(failures)")
    }
    #expect(verified > 0)
    print(
      "\(document.file): \(verified) JWS verified, \(nestedVerified) nested, \(failures.count) refused"
    )
  }

  static func jws(_ name: String) throws -> String {
    String(decoding: try SharedData.fixture("jws_v2/\(name)"), as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The last `x5c` certificate of a JWS.
  static func lastCertificate(of jws: String) throws -> [UInt8] {
    var header = String(jws.prefix { $0 != "." })
    header = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
      of: "_", with: "/")
    while header.count % 4 != 0 { header += "=" }
    let json = try #require(Data(base64Encoded: header))
    let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
    let last = try #require((object?["x5c"] as? [String])?.last)
    return Array(try #require(Data(base64Encoded: last)))
  }

  /// The test CA of Apple's app-store-server-library-python (its tests verify
  /// tests/resources/mock_signed_data with tests/resources/certs/testCA.der), by the SHA-256 of
  /// the DER of the last x5c certificate of each mock JWS, computed once with Python's hashlib.
  /// Two certificates of that CA circulate, with one key and one subject (C=US,
  /// ST=California, L=Cupertino): Apple's library trusts the key (OpenSSL never reads the x5c
  /// root), this verifier pins bytes, so both are pinned, each for the mocks that carry it.
  /// The v1 certificate of 2023-01-04, in the mock transaction and TEST notification.
  static let testCAVersion1 = "A6868C466255BB946A442EE4638394090DFF64E1C841FA8C775B8228F159BD20"
  /// The v3 certificate of 2023-01-05 (a CA by its basic constraints), in the mock renewal
  /// info; Apple's test_x509_verifiction.py holds it as ROOT_CA_BASE64_ENCODED.
  static let testCAVersion3 = "48AA70550EAB2CD71D51DCED44E88F9143B6BC0E1A6F430C19BA9A7CF36654E6"

  /// Apple's mock JWS and the test CA certificate each ends in.
  static let mocks = [
    "apple-asl-python__mock_transactionInfo.jws": testCAVersion1,
    "apple-asl-python__mock_testNotification.jws": testCAVersion1,
    "apple-asl-python__mock_renewalInfo.jws": testCAVersion3,
  ]

  /// The two pinned test CA certificates, and nothing else.
  static func testCA() throws -> [TrustedRoot] {
    try [testCAVersion1, testCAVersion3].map { try #require(TrustedRoot(fingerprint: $0)) }
  }

  /// Each mock verifies against the pinned test CA and nothing else: not against the other
  /// certificate of the same CA (same key, same subject: the pin is the certificate's bytes),
  /// not against Apple's root.
  @Test(arguments: mocks.keys.sorted())
  func applesTestPayloadsVerifyAgainstThePinnedTestCAOnly(_ name: String) throws {
    let jws = try Self.jws(name)
    let carried = try TrustedRoot(derRepresentation: Self.lastCertificate(of: jws))
    #expect(carried.fingerprint == Self.mocks[name])
    let verifier = AppStoreSignatureVerifier(
      trustedRoots: try Self.testCA(), bundleId: "com.example", environment: .sandbox)
    let payload = try verifier.verify(jws)
    #expect(payload.environment == .sandbox)
    let otherCertificate = try Self.testCA().filter { $0.fingerprint != Self.mocks[name] }
    #expect(otherCertificate.count == 1)
    let other = AppStoreSignatureVerifier(
      trustedRoots: otherCertificate, bundleId: "com.example", environment: .sandbox)
    #expect(throws: SignatureVerificationError.untrustedRoot) { try other.verify(jws) }
    let apple = AppStoreSignatureVerifier(bundleId: "com.example", environment: .sandbox)
    #expect(throws: SignatureVerificationError.untrustedRoot) { try apple.verify(jws) }
  }

  /// The mock TEST notification says appAppleId 1234 (the default of Apple's tests/util.py),
  /// and it is compared: a production verifier expecting 1235 refuses it for that, and one
  /// expecting 1234 gets past it to the environment (the notification is the sandbox's), as
  /// Apple's test_wrong_app_apple_id_for_server_notification and
  /// test_app_store_server_notification_decoding_production expect.
  @Test func theMockNotificationsAppAppleIdIsChecked() throws {
    let jws = try Self.jws("apple-asl-python__mock_testNotification.jws")
    func verifier(_ environment: StoreEnvironment, _ appAppleId: Int64) throws
      -> AppStoreSignatureVerifier
    {
      AppStoreSignatureVerifier(
        trustedRoots: try Self.testCA(), bundleId: "com.example", environment: environment,
        appAppleId: appAppleId)
    }
    let verified = try verifier(.sandbox, 1234).verifyNotification(jws)
    #expect(verified.notification.appAppleId == 1234)
    #expect(throws: SignatureVerificationError.appAppleIdMismatch(expected: 1235, found: 1234)) {
      try verifier(.production, 1235).verifyNotification(jws)
    }
    let sandboxPayload = SignatureVerificationError.environmentMismatch(
      expected: .production, found: "Sandbox")
    #expect(throws: sandboxPayload) { try verifier(.production, 1234).verifyNotification(jws) }
  }

  /// Apple's root alone in `x5c` is never a chain of one (Xcode's form), even where Apple's
  /// root is trusted: refused for the chain's length. Without that check it would be refused
  /// later, for its P-384 key, which this test tells apart.
  @Test func applesRootAloneIsNotAChainOfOne() throws {
    let documents = try JSONSerialization.jsonObject(
      with: SharedData.fixture("notifications_v2/session-pro-backend/documents.json"))
    let real = try #require(Self.signedStrings(in: documents).first?.jws)
    let root = try Self.lastCertificate(of: real)
    #expect(try TrustedRoot(derRepresentation: root) == .appleRootCAG3)
    func base64URL(_ bytes: some Sequence<UInt8>) -> String {
      Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    let header = #"{"alg":"ES256","x5c":["\#(Data(root).base64EncodedString())"]}"#
    let payload = #"{"bundleId":"com.example","environment":"Xcode","signedDate":1759320000000}"#
    let signature = base64URL([UInt8](repeating: 1, count: 64))
    let jws = [base64URL(header.utf8), base64URL(payload.utf8), signature].joined(separator: ".")
    for environment in [StoreEnvironment.production, .sandbox, nil] {
      let verifier = AppStoreSignatureVerifier(
        trustedRoots: [.appleRootCAG3], bundleId: nil, environment: environment)
      #expect(throws: SignatureVerificationError.invalidChainLength(1)) {
        try verifier.verify(jws)
      }
    }
  }

  /// Xcode's payloads and their `signedDate` (`receiptCreationDate` for the app transaction),
  /// written with a fraction of a millisecond.
  static let xcode: [String: Int64] = [
    "apple-asl-python__xcode-signed-transaction.jws": 1_697_679_936_056,
    "apple-asl-python__xcode-signed-renewal-info.jws": 1_697_679_936_711,
    "apple-asl-python__xcode-signed-app-transaction.jws": 1_697_680_122_257,
  ]

  @Test(arguments: xcode.keys.sorted())
  func xcodePayloadsVerifyOnlyAgainstTheirOwnCertificate(_ name: String) throws {
    let jws = try Self.jws(name)
    for environment in [StoreEnvironment.production, .sandbox, .xcode] {
      let apple = AppStoreSignatureVerifier(bundleId: nil, environment: environment)
      #expect(throws: SignatureVerificationError.invalidChainLength(1)) { try apple.verify(jws) }
    }
    let xcodeCertificate = try TrustedRoot(derRepresentation: Self.lastCertificate(of: jws))
    let verifier = AppStoreSignatureVerifier(
      trustedRoots: [xcodeCertificate, .appleRootCAG3],
      bundleId: "com.example.naturelab.backyardbirds.example", environment: .xcode)
    #expect(verifier.trustedRoots == [xcodeCertificate])
    let payload = try verifier.verify(jws)
    #expect(payload.environment == .xcode)
    // Fractional milliseconds are truncated, as Apple's libraries do.
    #expect(payload.signedDate?.millisecondsSince1970 == Self.xcode[name])
  }
}
