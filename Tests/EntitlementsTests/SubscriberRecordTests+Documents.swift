import Testing

@testable import Entitlements

/// A document folded as an ``AppStoreDocument`` gives the record that folding it as any
/// ``PurchaseDocument`` gives (SPEC §10).
extension SubscriberRecordTests {
  /// A transaction folded as an ``AppStoreDocument`` (the way of `DocumentReader` and
  /// `entitlements evaluate`, which folds its evidence in place) gives the record that folding
  /// it as any ``PurchaseDocument`` gives: its diagnostics kept, and the environment of the
  /// newest document, at one timestamp the larger raw value, in any order.
  @Test(arguments: [[0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]])
  func aTransactionFoldsAsAnyDocumentFolds(order: [Int]) {
    func transaction(
      _ id: String, signed day: Int64?, _ environment: StoreEnvironment?, noting field: String?
    ) -> AppStoreTransaction {
      var base = Fold(id: id, revoked: false, signed: day).transaction(day: 0)
      base.environment = environment
      base.diagnostics =
        field.map {
          [Diagnostic(.unreadableField, transactionID: TransactionID(id), field: $0, message: "x")]
        } ?? []
      return base
    }
    let transactions = [
      transaction("2000000000000001", signed: 5, .sandbox, noting: "quantity"),
      transaction("2000000000000002", signed: 5, .production, noting: nil),
      transaction("2000000000000003", signed: nil, .xcode, noting: "price"),
    ]
    // Generic: the overload for any `PurchaseDocument`, not the one for `AppStoreDocument`.
    func foldAsAny(_ document: some PurchaseDocument, into record: inout SubscriberRecord) {
      record.fold(document)
    }
    var asDocuments = SubscriberRecord()
    var asAny = SubscriberRecord()
    for index in order {
      asDocuments.fold(AppStoreDocument.transaction(transactions[index]))
      foldAsAny(transactions[index], into: &asAny)
    }
    #expect(asDocuments == asAny)
    #expect(Set(asDocuments.readingDiagnostics.map(\.field)) == ["price", "quantity"])
    // Signed on day 5 both: the larger raw value ("Sandbox" > "Production").
    #expect(asDocuments.environment == .sandbox)
  }
}
