import Testing

@testable import Entitlements

/// How ``SubscriberRecord`` keeps one record per transaction while it skips its table: ids
/// met in increasing order are appended with no lookup, and the first id that is not larger
/// than all before it (a repeat, an older transaction, an id that is not a plain number)
/// builds the table and keeps it (SPEC §3, §10).
extension SubscriberRecordTests {
  /// One transaction document: `id`, revoked when `revoked`, signed on day `signed` (undated
  /// when `nil`: the oldest).
  struct Fold: CustomStringConvertible {
    let id: String
    let revoked: Bool
    var signed: Int64?

    var description: String {
      (revoked ? "\(id) revoked" : id) + (signed.map { " signed on day \($0)" } ?? "")
    }

    /// The transaction, bought on day `day` for 30 days.
    func transaction(day: Int) -> AppStoreTransaction {
      let purchase = instant("2025-01-01T00:00:00Z") + .days(Int64(day))
      let entry = ReceiptEntry(
        productID: "monthly", transactionID: TransactionID(id),
        originalTransactionID: "1000000000000001", purchaseDate: purchase,
        expiresDate: purchase + .days(30),
        cancellationDate: revoked ? purchase + .days(3) : nil)
      return AppStoreTransaction(
        entry: entry, type: "Auto-Renewable Subscription", environment: .production,
        timestamp: signed.map { instant("2025-01-01T00:00:00Z") + .days($0) }, diagnostics: [])
    }
  }

  struct PositionCase: CustomStringConvertible {
    let name: String
    let folds: [Fold]
    /// The ids of the history, in canonical order, and the revoked ones.
    let ids: [String]
    let revoked: Set<String>

    var description: String { name }
  }

  static func fold(_ id: String, signed: Int64? = nil) -> Fold {
    Fold(id: id, revoked: false, signed: signed)
  }
  static func revoke(_ id: String, signed: Int64? = nil) -> Fold {
    Fold(id: id, revoked: true, signed: signed)
  }

  static let positionCases: [PositionCase] = [
    PositionCase(
      name: "increasing ids: no repeat",
      folds: ["2000000000000001", "2000000000000002"].map { fold($0) },
      ids: ["2000000000000001", "2000000000000002"], revoked: []),
    PositionCase(
      name: "the last id again", folds: [fold("2000000000000001"), revoke("2000000000000001")],
      ids: ["2000000000000001"], revoked: ["2000000000000001"]),
    PositionCase(
      name: "an earlier id again",
      folds: [
        fold("2000000000000001"), fold("2000000000000002"), fold("2000000000000003"),
        revoke("2000000000000001"),
      ],
      ids: ["2000000000000001", "2000000000000002", "2000000000000003"],
      revoked: ["2000000000000001"]),
    PositionCase(
      name: "a larger id once the table is built, then again",
      folds: [
        fold("2000000000000001"), fold("2000000000000003"), fold("2000000000000002"),
        fold("2000000000000004"), revoke("2000000000000004"),
      ],
      ids: ["2000000000000001", "2000000000000002", "2000000000000003", "2000000000000004"],
      revoked: ["2000000000000004"]),
    PositionCase(
      name: "decreasing ids, then the first again",
      folds: [
        fold("2000000000000003"), fold("2000000000000002"), fold("2000000000000001"),
        revoke("2000000000000003"),
      ],
      ids: ["2000000000000001", "2000000000000002", "2000000000000003"],
      revoked: ["2000000000000003"]),
    PositionCase(
      name: "a newer document without the refund, once the table is built",
      folds: [
        revoke("2000000000000001", signed: 1), fold("2000000000000002", signed: 2),
        fold("2000000000000001", signed: 5),
      ],
      ids: ["2000000000000001", "2000000000000002"], revoked: []),
    PositionCase(
      name: "an older document without the refund after it",
      folds: [revoke("2000000000000001", signed: 5), fold("2000000000000001", signed: 1)],
      ids: ["2000000000000001"], revoked: ["2000000000000001"]),
    PositionCase(
      name: "id 0 twice", folds: [fold("0"), revoke("0")], ids: ["0"], revoked: ["0"]),
    PositionCase(
      name: "ids that are not plain numbers",
      folds: [fold("0042"), fold("42"), revoke("0042"), fold("A7"), revoke("A7")],
      ids: ["0042", "42", "A7"], revoked: ["0042", "A7"]),
  ]

  /// Folded one document at a time, as the reader returns them and as a document of its own
  /// type, each case keeps one record per id, the revoked one where there are two.
  @Test(arguments: positionCases)
  func oneRecordPerTransaction(_ test: PositionCase) {
    var asRead = SubscriberRecord()
    var asTyped = SubscriberRecord()
    for (index, fold) in test.folds.enumerated() {
      // Days by id order, so that canonical order is the order of `ids`.
      let day = test.ids.firstIndex(of: fold.id).map { $0 * 30 } ?? index
      asRead.fold(AppStoreDocument.transaction(fold.transaction(day: day)))
      asTyped.fold(fold.transaction(day: day))
    }
    for record in [asRead, asTyped] {
      let entries = record.history.entries
      #expect(entries.map(\.transactionID.rawValue) == test.ids)
      #expect(
        Set(entries.filter { $0.cancellationDate != nil }.map(\.transactionID.rawValue))
          == test.revoked)
    }
  }
}
