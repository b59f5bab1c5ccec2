import Foundation
import Testing

@testable import Entitlements

/// `DocumentReader.readAll`: a file of one document, a JSON array of documents and JWS
/// strings, or one JWS per line; each document as `read` reads it alone, in the file's order.
@Suite("Reading every document of a file")
struct ReadAllTests {
  static let expiry = APIResponseTests.start + 30 * APIResponseTests.day

  /// The documents of the files below, as they are stored: JWS strings and decoded JSON.
  static let transaction = APIResponseTests.transaction(0)
  static let renewal = APIResponseTests.renewal(signed: expiry, retry: true, grace: nil)
  static let notification = APIResponseTests.jws(
    """
    {"notificationType": "DID_FAIL_TO_RENEW", "signedDate": \(expiry + 1000),
     "data": {"status": 3, "environment": "Sandbox",
       "signedTransactionInfo": "\(transaction)", "signedRenewalInfo": "\(renewal)"}}
    """)
  static let receipt = #"""
    {"status": 0, "latest_receipt_info": [{"product_id": "com.example.monthly",
      "transaction_id": "2000000000000199", "original_transaction_id": "2000000000000100",
      "purchase_date_ms": "1749000000000", "expires_date_ms": "1750000000000"}]}
    """#

  /// Files and the documents each holds, each read alone.
  static let files: [(name: String, file: String, documents: [String])] = [
    (
      "one JWS per line", "\(transaction)\n\(renewal)\n\(notification)\n",
      [
        transaction, renewal, notification,
      ]
    ),
    (
      "JWS lines with blank lines, CRLF, spaces and tabs",
      "\n  \(notification)\r\n\r\n\t\(transaction) \n\n", [notification, transaction]
    ),
    ("one JWS, no newline", transaction, [transaction]),
    (
      "a JSON array of JWS strings and documents",
      #"["\#(transaction)", \#(receipt), {"signedPayload": "\#(notification)"}, "\#(renewal)"]"#,
      [transaction, receipt, #"{"signedPayload": "\#(notification)"}"#, renewal]
    ),
    ("an empty JSON array", " [ ] ", []),
    ("one JSON document", receipt, [receipt]),
  ]

  @Test(arguments: files.indices)
  func eachDocumentIsReadAsAlone(_ index: Int) throws {
    let (name, file, expected) = Self.files[index]
    let documents = try DocumentReader.readAllUnverified(Array(file.utf8))
    #expect(documents.count == expected.count, "\(name)")
    for (document, text) in zip(documents, expected) {
      #expect(document == (try DocumentReader.readUnverified(Array(text.utf8))), "\(name)")
    }
  }

  /// Any collection of bytes reads as the array does: `Data`, a slice of it after a byte
  /// order mark, and a collection with no contiguous storage.
  @Test(arguments: files.indices)
  func anyCollectionOfBytesReadsAsTheArray(_ index: Int) throws {
    let (name, file, _) = Self.files[index]
    let bytes = Array(file.utf8)
    let expected = try DocumentReader.readAllUnverified(bytes)
    #expect(try DocumentReader.readAllUnverified(Data(bytes)) == expected, "\(name)")
    #expect(
      try DocumentReader.readAllUnverified(Data([0xEF, 0xBB, 0xBF] + bytes).dropFirst(3))
        == expected)
    #expect(try DocumentReader.readAllUnverified(bytes.lazy.map { $0 }) == expected, "\(name)")
  }

  /// Folded, the documents of a file are one subscriber's: the lines above give its transaction,
  /// its renewal info and the notification's evidence.
  @Test func theDocumentsOfAFileFoldIntoOneRecord() throws {
    var record = SubscriberRecord()
    for document in try DocumentReader.readAllUnverified(Array(Self.files[0].file.utf8)) {
      record.fold(document)
    }
    #expect(record.history.entries.count == 1)
    #expect(record.history.notifications.map(\.type) == [.didFailToRenew])
    let evaluation = try #require(Evaluator().evaluate(record.history).entitlements.first)
    #expect(
      evaluation.status(at: Instant(millisecondsSince1970: Self.expiry + 2000)).state
        == .billingRetry)
  }

  /// A document that cannot be read is an error naming its place in the file: its line (as the
  /// file numbers it, blank lines counted), or its element of the array; a verifyReceipt status
  /// that carries no receipt is the status error.
  @Test(arguments: [
    ("\(transaction)\nnot.a.jws.at.all\n", "not JSON: at byte 0: expected null (in line 2)"),
    ("\(transaction)\n\n\(transaction).x\n", "(in line 3)"),
    ("\(transaction)\r\n\r\n  a.b*.c\r\n", "not a JWS: line 3"),
    (
      "\(transaction)\n\(APIResponseTests.jws("[1,"))",
      "not JSON: at byte 3: expected a value, found the end (in line 2)"
    ),
    (#"["\#(transaction)", "a.b*.c"]"#, "not a JWS: [1]"),
    (#"["\#(transaction)", 5]"#, "[1] (document): expected an object"),
    (#"[{"status": 21007}]"#, "verifyReceipt status 21007"),
    (#"[{"notification_type": "RENEWAL"}, {"nothing": 1}]"#, "unrecognized document: [1]"),
  ])
  func anErrorNamesItsPlace(file: String, expected: String) {
    do {
      let documents = try DocumentReader.readAllUnverified(Array(file.utf8))
      Issue.record("read \(documents.count) documents")
    } catch {
      #expect(error.description.contains(expected), "\(error)")
    }
  }
}
