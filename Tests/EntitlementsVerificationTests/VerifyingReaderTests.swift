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

  static func verifier(_ environment: StoreEnvironment) throws -> AppStoreSignatureVerifier {
    AppStoreSignatureVerifier(
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
    #expect(try DocumentReader.readUnverified(body) == document)
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
      #expect(refusedPath == path)
      #expect(reason.contains(step), "\(reason)")
    }
    // Unverified, the reader would have read it: the verifier is what refuses it.
    #expect((try? DocumentReader.readUnverified(body)) != nil)
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

  /// A verifier of the caller's own plugs into the reader: what it refuses is refused, named
  /// by path and with its error; what it returns is what is read.
  @Test func aCallersOwnVerifierDecides() throws {
    struct Refused: Error, CustomStringConvertible {
      var description: String { "revoked by our own check" }
    }
    struct OwnVerifier: SignedPayloadVerifier {
      var accepted: String
      func verifiedPayload(of compactJWS: String) throws -> [UInt8] {
        guard compactJWS == accepted else { throw Refused() }
        return Array(
          #"{"transactionId": "5", "originalTransactionId": "5", "productId": "p", "purchaseDate": 0, "expiresDate": 1000}"#
            .utf8)
      }
    }
    let page = Self.bytes(#"{"signedTransactions": ["h.p.s", "h.q.s"], "hasMore": false}"#)
    do throws(ReadError) {
      _ = try DocumentReader.read(page, verifier: OwnVerifier(accepted: "h.p.s"))
      Issue.record("the refused JWS was read")
    } catch {
      #expect(
        error
          == .signatureRejected(path: "signedTransactions[1]", reason: "revoked by our own check"))
    }
    let single = Self.bytes(#"{"signedTransactions": ["h.p.s"], "hasMore": false}"#)
    let read = try DocumentReader.read(single, verifier: OwnVerifier(accepted: "h.p.s"))
    #expect(read.entries.map(\.transactionID) == ["5"])
  }

  /// A page's own `environment` is not signed: read with a verifier, the environment is the
  /// signed transactions'; without one, the page's word is taken as it is.
  @Test func anUnsignedEnvironmentBesideSignedTransactionsIsNotTrusted() throws {
    let signed = try Self.named("a transaction under the Apple-shaped chain").jws
    let page = Self.bytes(
      #"{"signedTransactions": ["\#(signed)"], "hasMore": false, "environment": "Production"}"#)
    let statuses = Self.bytes(
      #"{"environment": "Production", "data": [{"subscriptionGroupIdentifier": "1", "lastTransactions": [{"status": 1, "originalTransactionId": "1", "signedTransactionInfo": "\#(signed)"}]}]}"#
    )
    let verifier = try Self.verifier(.sandbox)
    for bytes in [page, statuses] {
      #expect(try DocumentReader.read(bytes, verifier: verifier).environment == .sandbox)
      #expect(try DocumentReader.readUnverified(bytes).environment == .production)
    }
  }

  /// A verifying reader reads only signed documents: a plain JSON transaction, which anyone
  /// can write, is refused.
  @Test func anUnsignedDocumentIsRefused() throws {
    let plain = Self.bytes(
      #"{"transactionId": "1", "originalTransactionId": "1", "productId": "p", "purchaseDate": 0, "expiresDate": 4070908800000}"#
    )
    let verifier = try Self.verifier(.sandbox)
    #expect(
      throws: ReadError.signatureRejected(
        path: "(document)", reason: "not signed: a verifying reader reads only signed documents")
    ) {
      try DocumentReader.read(plain, verifier: verifier)
    }
    #expect((try? DocumentReader.readUnverified(plain)) != nil)
  }

  /// Unsigned keys beside a signed container do not pass for signed: a body with keys of two
  /// kinds of document is refused, with a verifier and without (where it would otherwise be
  /// read as the unsigned kind).
  @Test func unsignedKeysBesideSignedOnesAreRefused() throws {
    let good = try Self.named("a transaction under the Apple-shaped chain").jws
    let forged =
      #"[{"product_id": "p", "transaction_id": "9", "original_transaction_id": "9", "#
      + #""purchase_date_ms": "1700000000000", "expires_date_ms": "4070908800000"}]"#
    let bodies = [
      #"{"data": [], "notification_type": "INITIAL_BUY", "latest_receipt_info": \#(forged)}"#,
      #"{"signedTransactions": ["\#(good)"], "status": 0, "latest_receipt_info": \#(forged)}"#,
      #"{"notificationHistory": [], "notificationType": "SUBSCRIBED", "signedDate": 1}"#,
    ]
    let verifier = try Self.verifier(.sandbox)
    for body in bodies {
      for reader in [verifier, nil] as [AppStoreSignatureVerifier?] {
        do throws(ReadError) {
          let document = try DocumentReader.read(Self.bytes(body), optionalVerifier: reader)
          Issue.record("read as \(document): \(body)")
        } catch {
          guard case .unrecognizedDocument(let reason) = error else {
            Issue.record("not refused as ambiguous: \(error)")
            continue
          }
          #expect(reason.contains("kinds of document at once"), "\(reason)")
        }
      }
    }
  }
}
