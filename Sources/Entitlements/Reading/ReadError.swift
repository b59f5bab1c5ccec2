/// A document that cannot be read at all: not JSON, not a JWS, or not any document Apple sends.
///
/// Problems inside a readable document (one field unreadable) are not errors: they are
/// ``Diagnostic``s with the field's JSON path, and the rest of the document is kept.
///
/// ```swift
/// do { _ = try DocumentReader.readUnverified(Array("{".utf8)) } catch {
///   error.description  // "not JSON: at byte 1: expected a member name in quotes"
/// }
/// ```
public enum ReadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The bytes are not JSON; the error names the byte offset.
  case malformedJSON(JSONSyntaxError)
  /// A part of the document has the wrong JSON type.
  case unexpectedShape(path: String, expected: String, found: String)
  /// A JWS (`header.payload.signature`) whose payload cannot be decoded.
  case malformedJWS(String)
  /// Well-formed JSON that is none of the documents this library reads.
  case unrecognizedDocument(String)
  /// A verifyReceipt response whose `status` says it carries no receipt: never read as an
  /// empty history (SPEC §10).
  case verifyReceiptStatus(VerifyReceiptStatusError)
  /// A JWS the caller's ``SignedPayloadVerifier`` refused, at its JSON path (`signedPayload`,
  /// `data.signedTransactionInfo`, `signedTransactions[3]`).
  case signatureRejected(path: String, reason: String)

  /// One line saying what is wrong and where.
  public var description: String {
    switch self {
    case .malformedJSON(let error): "not JSON: \(error)"
    case .unexpectedShape(let path, let expected, let found):
      "\(path): expected \(expected), found \(found)"
    case .malformedJWS(let reason): "not a JWS: \(reason)"
    case .unrecognizedDocument(let reason): "unrecognized document: \(reason)"
    case .verifyReceiptStatus(let error): "verifyReceipt \(error)"
    case .signatureRejected(let path, let reason): "\(path): signature rejected: \(reason)"
    }
  }
}
