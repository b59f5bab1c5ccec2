import Entitlements
import EntitlementsVerification
import Testing

/// The README's first screen, "From Apple's bytes to an answer", run on the generated chain's
/// notification (a DID_RENEW for com.example.app, from 2025-10-01T11:59:00Z to
/// 2025-10-31T12:00:00Z): the same calls, the verifier trusting the generated root where the
/// README's trusts Apple's.
@Suite("README: from Apple's bytes to an answer")
struct ReadmeFirstScreenTests {
  @Test func theFirstScreenAnswers() throws {
    // The README's verifier and catalog, as Getting Started sets them up (its verifier
    // trusting the generated root where the README's trusts Apple's).
    let service = try GettingStartedTests.makeService()
    let (verifier, evaluator) = (service.verifier, service.evaluator)
    let body = GettingStartedTests.body(try GettingStartedTests.signedPayload())
    let storedBodies = [body]  // received before: the same notification again
    let now = try Instant(parsing: "2025-10-15T09:30:00Z")

    let document = try DocumentReader.read(body, verifier: verifier)
    var record = SubscriberRecord()
    for kept in storedBodies { record.fold(try DocumentReader.readUnverified(kept)) }
    record.fold(document)

    let premium = evaluator.evaluate(record.history)["premium"]
    #expect(premium?.status(at: now).isEntitled == true)
    #expect(premium?.nextChange(after: now)?.at == (try Instant(parsing: "2025-10-31T12:00:00Z")))

    // "refuses a forgery": the same body with its payload changed.
    let forged = GettingStartedTests.body(
      try GettingStartedTests.forged(try GettingStartedTests.signedPayload()))
    do {
      _ = try DocumentReader.read(forged, verifier: verifier)
      Issue.record("a forgery was read")
    } catch {
      guard case .signatureRejected(let path, let reason) = error else {
        Issue.record("refused for another reason: \(error)")
        return
      }
      #expect(path == "signedPayload")
      #expect(reason.hasPrefix("invalidSignature"))
    }
  }
}
