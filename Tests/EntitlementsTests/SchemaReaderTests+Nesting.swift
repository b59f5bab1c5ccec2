import Testing

@testable import Entitlements

// Payloads inside documents: what each names its diagnostics from, and what a payload of a
// known kind does not read.

extension SchemaReaderTests {
  /// A document read as another kind than the test wrote.
  struct Unexpected: Error {}

  /// A payload read inside a document names its fields' diagnostics as it does read alone;
  /// the document's own list names them from its top.
  @Test func aPayloadInsideADocumentNamesItsFieldsFromItsTop() throws {
    let transaction = #"{"transactionId": "1", "productId": "p", "quantity": "many"}"#
    let alone = try AppStoreTransaction(unverifiedJSON: Array(transaction.utf8))
    #expect(alone.diagnostics.map(\.field) == ["quantity"])

    guard
      case .transactionHistory(let page) = try DocumentReader.readUnverified(
        Array(#"{"signedTransactions": ["\#(Self.jws(transaction))"]}"#.utf8))
    else { throw Unexpected() }
    #expect(page.diagnostics.map(\.field) == ["signedTransactions[0].quantity"])
    #expect(page.transactions.map { $0.diagnostics.map(\.field) } == [["quantity"]])

    guard
      case .subscriptionStatuses(let statuses) = try DocumentReader.readUnverified(
        Array(
          #"{"data": [{"lastTransactions": [{"signedTransactionInfo": "\#(Self.jws(transaction))"}]}]}"#
            .utf8))
    else { throw Unexpected() }
    #expect(
      statuses.diagnostics.map(\.field)
        == ["data[0].lastTransactions[0].signedTransactionInfo.quantity"])
    #expect(
      statuses.lastTransactions.map { $0.transaction?.diagnostics.map(\.field) } == [["quantity"]])

    let notification = #"{"notificationType": "TEST", "signedDate": "soon"}"#
    guard
      case .notificationHistory(let history) = try DocumentReader.readUnverified(
        Array(#"{"notificationHistory": [{"signedPayload": "\#(Self.jws(notification))"}]}"#.utf8))
    else { throw Unexpected() }
    #expect(history.diagnostics.map(\.field) == ["notificationHistory[0].signedPayload.signedDate"])
    #expect(history.notificationPayloads.map { $0.diagnostics.map(\.field) } == [["signedDate"]])
  }

  /// A history's notification is read as a notification: the members other kinds of
  /// document have (a history of its own, a page's transactions) are skipped, not read. A
  /// notification holding a history holding a notification, each level given a key twice
  /// (which has an object read again), opens one JWS, the outer one; read into, it would open
  /// every level's, and each level's twice as often as the level above.
  @Test(arguments: [1, 3, 6])
  func aHistorysNotificationOpensNoPayloadOfAnotherKind(levels: Int) throws {
    var notification = #"{"notificationType": "TEST", "signedDate": 1}"#
    for _ in 0..<levels {
      notification =
        #"{"notificationType": "TEST", "signedDate": 1, "hasMore": false, "hasMore": true, "#
        + #""signedTransactions": ["\#(Self.jws(ReaderTestSupport.transactionPayload))"], "#
        + #""notificationHistory": [{"signedPayload": "\#(Self.jws(notification))"}]}"#
    }
    let json = Array(
      #"{"notificationHistory": [{"signedPayload": "\#(Self.jws(notification))"}]}"#.utf8)
    guard case .notificationHistory(let page) = try DocumentReader.readUnverified(json) else {
      throw Unexpected()
    }
    #expect(page.notificationPayloads.map(\.rawNotificationType) == ["TEST"])
    #expect(page.diagnostics.isEmpty)
    let opened = json.withUnsafeBufferPointer { bytes in
      var reader = SchemaReader(bytes: bytes)
      _ = try? reader.ending { reader throws(SchemaReader.Stop) in try reader.document() }
      return reader.payloadsOpened
    }
    #expect(opened == 1)
  }
}
