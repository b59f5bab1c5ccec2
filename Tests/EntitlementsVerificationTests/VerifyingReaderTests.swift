import Entitlements
import EntitlementsVerification
import Foundation
import Testing

/// `DocumentReader` given a verifier (SPEC §11): every JWS of a document is verified before it
/// is read, and a refusal is an error naming the JWS's JSON path; without one, the same bytes
/// are read unverified.
@Suite("Reading with a verifier")
struct VerifyingReaderTests {
  typealias Case = GeneratedChainTests.Case

  static func named(_ name: String) throws -> Case {
    try #require(GeneratedChainTests.cases.first { $0.name == name }, "no case \(name)")
  }

  static func verifier(_ environment: StoreEnvironment) throws -> SignedDataVerifier {
    SignedDataVerifier(
      trustedRoots: [try GeneratedChainTests.root("root")], bundleId: "com.example.app",
      environment: environment, appAppleId: 1234)
  }

  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test func aVerifiedNotificationIsRead() throws {
    let notification = try Self.named("a production notification with its nested JWS")
    let body = Self.bytes(#"{"signedPayload": "\#(notification.jws)"}"#)
    let document = try DocumentReader.read(body, verifier: Self.verifier(.production))
    guard case .notificationV2(let read) = document else {
      Issue.record("read as \(document)")
      return
    }
    #expect(read.entries.count == 1)
    #expect(read.renewalInfo.count == 1)
    // The same, unverified, reads alike.
    #expect(try DocumentReader.read(body) == document)
  }

  /// Each refusal names where the refused JWS is: the outer payload, or a nested field.
  @Test(arguments: [
    (
      "a notification whose nested transaction has a changed signature",
      "signedPayload > data.signedTransactionInfo", "invalidSignature"
    ),
    (
      "a notification whose nested renewal info is for the sandbox",
      "signedPayload > data.signedRenewalInfo", "environmentMismatch"
    ),
    ("a notification with the wrong appAppleId", "signedPayload", "appAppleIdMismatch"),
  ])
  func aRefusedNotificationNamesTheJWS(name: String, path: String, step: String) throws {
    let test = try Self.named(name)
    let body = Self.bytes(#"{"signedPayload": "\#(test.jws)"}"#)
    let verifier = try Self.verifier(.production)
    do throws(ReadError) {
      let document = try DocumentReader.read(body, verifier: verifier)
      Issue.record("accepted: \(document)")
    } catch {
      guard case .signatureRejected(let refusedPath, let reason) = error else {
        Issue.record("not a refusal: \(error)")
        return
      }
      #expect(refusedPath.hasPrefix(path), "\(refusedPath)")
      #expect(reason.contains(step), "\(reason)")
    }
    // Unverified, the reader would have read it: the verifier is what refuses it.
    #expect((try? DocumentReader.read(body)) != nil)
  }

  /// A page of signed transactions: each is verified, and the refused one is named by index.
  @Test func aHistoryPageVerifiesEachTransaction() throws {
    let good = try Self.named("a transaction under the Apple-shaped chain").jws
    let changed = try Self.named("signature changed").jws
    func page(_ transactions: [String]) -> [UInt8] {
      let list = transactions.map { "\"\($0)\"" }.joined(separator: ", ")
      return Self.bytes(
        #"{"bundleId": "com.example.app", "environment": "Sandbox", "hasMore": false, "signedTransactions": [\#(list)]}"#
      )
    }
    let verifier = try Self.verifier(.sandbox)
    let read = try DocumentReader.read(page([good]), verifier: verifier)
    #expect(read.entries.count == 1)
    do throws(ReadError) {
      _ = try DocumentReader.read(page([good, changed]), verifier: verifier)
      Issue.record("a changed signature was accepted")
    } catch {
      guard case .signatureRejected(let path, _) = error else {
        Issue.record("not a refusal: \(error)")
        return
      }
      #expect(path.contains("signedTransactions[1]"), "\(path)")
    }
  }

  /// A verifying reader reads only signed documents: a plain JSON transaction, which anyone
  /// can write, is refused.
  @Test func anUnsignedDocumentIsRefused() throws {
    let plain = Self.bytes(
      #"{"transactionId": "1", "originalTransactionId": "1", "productId": "p", "purchaseDate": 0, "expiresDate": 4070908800000}"#
    )
    #expect(throws: ReadError.self) {
      try DocumentReader.read(plain, verifier: Self.verifier(.sandbox))
    }
    #expect((try? DocumentReader.read(plain)) != nil)
  }
}
