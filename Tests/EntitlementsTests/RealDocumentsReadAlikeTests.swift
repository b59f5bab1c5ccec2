import Foundation
import Testing

@testable import Entitlements

extension RealDocuments {
  /// The byte-level reader and the general reader on every real document: the same answer, or
  /// the byte-level reader gives up.
  @Suite("Both readers agree on every real document")
  struct RealDocumentsReadAlikeTests {
    /// Every document of the fixtures: each file, and each signed payload of the notification
    /// sequences.
    static func suiteDocuments() throws -> [(name: String, bytes: [UInt8])] {
      let files = try FileManager.default.subpathsOfDirectory(atPath: fixturesDirectory.path)
        .filter { $0.hasSuffix(".json") || $0.hasSuffix(".jws") }.sorted()
      var documents: [(String, [UInt8])] = []
      for file in files {
        let bytes = Array(try fixtureData(file))
        documents.append((file, bytes))
        guard file.hasSuffix("sequences.json"),
          case .object(let root) = try JSONValue(parsing: bytes),
          case .array(let events) = root["events"]
        else { continue }
        for (number, event) in events.enumerated() {
          guard case .object(let members) = event,
            case .string(let signed) = members["signedPayload"]
          else { continue }
          let payload = try JWS.payload(of: signed)
          documents.append(("\(file) event \(number)", payload))
          // The signed fields inside, as the App Store Server API returns them.
          guard case .object(let notification) = try JSONValue(parsing: payload),
            case .object(let data) = notification["data"]
          else { continue }
          for key in ["signedTransactionInfo", "signedRenewalInfo"] {
            if case .string(let inner) = data[key] {
              documents.append(("\(file) event \(number) \(key)", try JWS.payload(of: inner)))
            }
          }
        }
      }
      return documents
    }

    @Test func everyDocumentOfTheSuite() throws {
      let documents = try Self.suiteDocuments()
      var fastKinds: [String: Int] = [:]
      for (name, bytes) in documents {
        let result = FastDocumentReaderTests.agree(bytes)
        #expect(result.agree, "\(name)")
        if result.fast, let document = FastDocumentReader.read(bytes) {
          fastKinds["\(type(of: document.document))", default: 0] += 1
        }
      }
      // Regular real documents of every schema take the fast path (the odd ones, iOS 6 and
      // numeric fields, do not).
      #expect(fastKinds["VerifyReceiptResponse", default: 0] >= 8, "\(fastKinds)")
      #expect(fastKinds["StatusUpdateNotification", default: 0] >= 1, "\(fastKinds)")
      #expect(fastKinds["ServerNotification", default: 0] >= 10, "\(fastKinds)")
      #expect(fastKinds["AppStoreTransaction", default: 0] >= 10, "\(fastKinds)")
      #expect(fastKinds["AppStoreRenewalInfo", default: 0] >= 10, "\(fastKinds)")
      print("fast path taken for \(fastKinds) of \(documents.count) documents")
    }

    /// The sources of real JWS: Apple-signed notifications and transactions as backends stored
    /// them.
    static let capturesWithJWS = [
      "notifications_v2/geniusparenting-strapi/documents.json",
      "notifications_v2/session-pro-backend/documents.json",
      "notifications_v2/soulmate-server/documents.json",
      "notifications_v2/odeme-entegrasyonu/documents.json",
    ]

    /// Every JWS string a capture stores (its `jws` and `signedPayload` fields), in file order.
    static func storedJWS(_ file: String) throws -> [String] {
      func signed(_ value: JSONValue) -> [String] {
        switch value {
        case .object(let members):
          return members.sorted { $0.key < $1.key }.flatMap { key, value -> [String] in
            if key == "jws" || key == "signedPayload", case .string(let text) = value {
              return [text]
            }
            return signed(value)
          }
        case .array(let elements): return elements.flatMap(signed)
        default: return []
        }
      }
      return signed(try JSONValue(parsing: Array(try fixtureData(file))))
    }

    /// Each real JWS of the v2 captures, read as a document (a bare JWS, a POST body), its
    /// decoded payload, and the payloads of the signed fields inside: both readers agree, and
    /// the byte-level reader reads every one of them itself (they are all regular).
    @Test(arguments: capturesWithJWS)
    func everyRealJWSOfTheV2Captures(_ file: String) throws {
      var counts: [String: Int] = [:]
      var read = 0
      func compare(_ bytes: [UInt8], _ name: String) {
        let result = FastDocumentReaderTests.agree(bytes)
        #expect(result.agree, "\(file): \(name)")
        #expect(result.fast, "\(file): \(name) left to the general reader")
        read += 1
      }
      for (number, compact) in try Self.storedJWS(file).enumerated() {
        compare(Array(compact.utf8), "JWS \(number)")
        compare(Array(#"{"signedPayload": "\#(compact)"}"#.utf8), "JWS \(number) as a POST body")
        let payload = try JWS.payload(of: compact)
        compare(payload, "JWS \(number)'s payload")
        let document = try DocumentReader.read(payload)
        counts["\(type(of: document.document))", default: 0] += 1
        guard case .object(let members) = try JSONValue(parsing: payload),
          case .object(let data)? = members["data"]
        else { continue }
        for key in ["signedTransactionInfo", "signedRenewalInfo"] {
          if case .string(let inner)? = data[key] {
            compare(Array(inner.utf8), "JWS \(number) \(key)")
            compare(try JWS.payload(of: inner), "JWS \(number) \(key)'s payload")
          }
        }
      }
      print("\(file): \(counts) JWS, \(read) documents read alike by both readers")
      #expect(!counts.isEmpty)
      if file.contains("geniusparenting") {
        // MANIFEST: 169 stored notifications and 19 transactions sent by the app.
        #expect(counts == ["ServerNotification": 169, "AppStoreTransaction": 19], "\(counts)")
      }
    }

    /// The typed entry points take the fast path only for their own kind of document.
    @Test func typedEntryPointsAgree() throws {
      for (name, bytes) in try Self.suiteDocuments() where bytes.first == UInt8(ascii: "{") {
        // A POST body (`{"signedPayload": …}`) is a document of its own: the typed entry
        // points read decoded payloads.
        if (try? JSONValue(parsing: bytes))?["signedPayload"] != nil { continue }
        let general = (try? DocumentReader.readGeneral(bytes))?.document
        if let expected = general as? VerifyReceiptResponse {
          #expect(try VerifyReceiptResponse(json: bytes) == expected, "\(name)")
        }
        if let expected = general as? StatusUpdateNotification {
          #expect(try StatusUpdateNotification(json: bytes) == expected, "\(name)")
        }
        if let expected = general as? ServerNotification {
          #expect(try ServerNotification(json: bytes) == expected, "\(name)")
        }
        if let expected = general as? AppStoreTransaction {
          #expect(try AppStoreTransaction(json: bytes) == expected, "\(name)")
        }
        if let expected = general as? AppStoreRenewalInfo {
          #expect(try AppStoreRenewalInfo(json: bytes) == expected, "\(name)")
        }
      }
    }
  }
}
