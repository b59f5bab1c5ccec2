import Foundation
import Testing

@testable import Entitlements

extension RealDocuments {
  /// The reader on every real document of the fixtures: each of every kind read with no
  /// diagnostic (but the one file whose signed fields are placeholders), in place as whole,
  /// and by the typed entry point of its kind as by the document reader.
  @Suite("Every real document read")
  struct RealDocumentsReadingTests {
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
          let payload = try JWS.unverifiedPayload(of: signed)
          documents.append(("\(file) event \(number)", payload))
          // The signed fields inside, as the App Store Server API returns them.
          guard case .object(let notification) = try JSONValue(parsing: payload),
            case .object(let data) = notification["data"]
          else { continue }
          for key in ["signedTransactionInfo", "signedRenewalInfo"] {
            if case .string(let inner) = data[key] {
              documents.append(
                ("\(file) event \(number) \(key)", try JWS.unverifiedPayload(of: inner)))
            }
          }
        }
      }
      return documents
    }

    /// The file of Apple's library whose notification holds placeholders where its signed
    /// fields go: each is reported.
    static let placeholders = "jws_v2/apple-asl-python__signedNotification.json"

    @Test func everyDocumentOfTheSuite() throws {
      var kinds: [String: Int] = [:]
      for (name, bytes) in try Self.suiteDocuments() {
        #expect(DocumentReader._consistencyProblem(bytes) == nil, "\(name)")
        guard let document = try? DocumentReader.readUnverified(bytes) else { continue }
        kinds["\(type(of: document.document))", default: 0] += 1
        if name == Self.placeholders {
          #expect(
            document.diagnostics.map(\.field)
              == ["data.signedTransactionInfo", "data.signedRenewalInfo"], "\(name)")
        } else {
          #expect(document.diagnostics.isEmpty, "\(name): \(document.diagnostics)")
        }
      }
      // Real documents of every schema, iOS 6 and numeric fields among them.
      #expect(kinds["VerifyReceiptResponse", default: 0] >= 12, "\(kinds)")
      #expect(kinds["StatusUpdateNotification", default: 0] >= 4, "\(kinds)")
      #expect(kinds["ServerNotification", default: 0] >= 10, "\(kinds)")
      #expect(kinds["AppStoreTransaction", default: 0] >= 10, "\(kinds)")
      #expect(kinds["AppStoreRenewalInfo", default: 0] >= 10, "\(kinds)")
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
    /// decoded payload, and the payloads of the signed fields inside: each read with no
    /// diagnostic, and the same notification or transaction whichever way it comes.
    @Test(arguments: capturesWithJWS)
    func everyRealJWSOfTheV2Captures(_ file: String) throws {
      var counts: [String: Int] = [:]
      func read(_ bytes: [UInt8], _ name: String) throws -> AppStoreDocument {
        #expect(DocumentReader._consistencyProblem(bytes) == nil, "\(file): \(name)")
        let document = try DocumentReader.readUnverified(bytes)
        #expect(document.diagnostics.isEmpty, "\(file): \(name): \(document.diagnostics)")
        return document
      }
      for (number, compact) in try Self.storedJWS(file).enumerated() {
        let bare = try read(Array(compact.utf8), "JWS \(number)")
        let body = try read(
          Array(#"{"signedPayload": "\#(compact)"}"#.utf8), "JWS \(number) as a POST body")
        let payload = try JWS.unverifiedPayload(of: compact)
        let decoded = try read(payload, "JWS \(number)'s payload")
        #expect(bare == decoded && body == decoded, "\(file): JWS \(number)")
        counts["\(type(of: decoded.document))", default: 0] += 1
        guard case .object(let members) = try JSONValue(parsing: payload),
          case .object(let data)? = members["data"]
        else { continue }
        for key in ["signedTransactionInfo", "signedRenewalInfo"] {
          if case .string(let inner)? = data[key] {
            let signed = try read(Array(inner.utf8), "JWS \(number) \(key)")
            #expect(
              signed == (try read(try JWS.unverifiedPayload(of: inner), "JWS \(number) \(key)")))
          }
        }
      }
      print("\(file): \(counts) JWS")
      #expect(!counts.isEmpty)
      if file.contains("geniusparenting") {
        // MANIFEST: 169 stored notifications and 19 transactions sent by the app.
        #expect(counts == ["ServerNotification": 169, "AppStoreTransaction": 19], "\(counts)")
      }
    }

    /// The typed entry points read a document of their kind as the document reader reads it.
    @Test func typedEntryPointsReadAsTheDocumentReader() throws {
      var compared = 0
      for (name, bytes) in try Self.suiteDocuments() where bytes.first == UInt8(ascii: "{") {
        // A POST body (`{"signedPayload": …}`) is a document of its own: the typed entry
        // points read decoded payloads.
        if (try? JSONValue(parsing: bytes))?["signedPayload"] != nil { continue }
        guard let read = try? DocumentReader.readUnverified(bytes) else { continue }
        compared += 1
        switch read {
        case .verifyReceipt(let expected):
          #expect(try VerifyReceiptResponse(unverifiedJSON: bytes) == expected, "\(name)")
        case .notificationV1(let expected):
          #expect(try StatusUpdateNotification(unverifiedJSON: bytes) == expected, "\(name)")
        case .notificationV2(let expected):
          #expect(try ServerNotification(unverifiedJSON: bytes) == expected, "\(name)")
        case .transaction(let expected):
          #expect(try AppStoreTransaction(unverifiedJSON: bytes) == expected, "\(name)")
        case .renewal(let expected):
          #expect(try AppStoreRenewalInfo(unverifiedJSON: bytes) == expected, "\(name)")
        default: compared -= 1
        }
      }
      #expect(compared > 40)
    }
  }
}
