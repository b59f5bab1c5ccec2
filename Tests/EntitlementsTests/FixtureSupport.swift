import Entitlements
import Foundation
import Testing

#if canImport(FoundationEssentials)
  import FoundationEssentials
#endif

/// `shared/fixtures`, beside the repository (as on a developer's machine and in CI), or where
/// the `ENTITLEMENTS_FIXTURES` environment variable says.
let fixturesDirectory: URL = {
  if let override = ProcessInfo.processInfo.environment["ENTITLEMENTS_FIXTURES"] {
    return URL(fileURLWithPath: override)
  }
  return URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // EntitlementsTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // repository root
    .deletingLastPathComponent()
    .appendingPathComponent("shared/fixtures")
}()

/// The bytes of a fixture file; fails the test with where it looked when the file is missing.
func fixtureData(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws
  -> Data
{
  let url = fixturesDirectory.appendingPathComponent(name)
  guard FileManager.default.fileExists(atPath: url.path) else {
    let path = url.path
    Issue.record(
      """
      fixture \(name) not found at \(path): shared/fixtures must sit beside the \
      repository, or ENTITLEMENTS_FIXTURES must name it
      """,
      sourceLocation: sourceLocation)
    throw CocoaError(.fileNoSuchFile)
  }
  return try Data(contentsOf: url)
}

/// Every `(product, purchase, expires)` found anywhere in a fixture document: objects with
/// `purchase_date_ms` and `expires_date_ms`, or with numeric `purchaseDate` and `expiresDate`
/// (decoded App Store Server API payloads). For tests of the duration tables only; reading
/// Apple's documents properly is the reading layer's job.
func subscriptionSpans(inFixture name: String) throws -> [(product: String, length: FixedDuration)]
{
  let data = try fixtureData(name)
  var spans: [(String, FixedDuration)] = []
  func number(_ value: Any?) -> Int64? {
    if let string = value as? String { return Double(string).map { Int64($0) } }
    if let number = value as? NSNumber { return Int64(number.doubleValue) }
    return nil
  }
  func walk(_ value: Any) {
    if let object = value as? [String: Any] {
      let purchase = number(object["purchase_date_ms"] ?? object["purchaseDate"])
      let expires = number(object["expires_date_ms"] ?? object["expiresDate"])
      let product = (object["product_id"] ?? object["productId"]) as? String
      if let purchase, let expires, let product {
        spans.append((product, .milliseconds(expires - purchase)))
      }
      for child in object.values { walk(child) }
    } else if let array = value as? [Any] {
      for child in array { walk(child) }
    }
  }
  walk(try JSONSerialization.jsonObject(with: data))
  return spans
}
