/// A value made from an entry, that ``PurchaseBuckets`` puts in canonical order: its entry's
/// purchase key (``Deduplication/purchaseKey(_:)``) and index.
///
/// ```swift
/// struct Keyed: PurchaseOrdered { let purchaseKey: UInt64; let entryIndex: Int }
/// ```
protocol PurchaseOrdered: BitwiseCopyable {
  /// The entry's ``Deduplication/purchaseKey(_:)``.
  var purchaseKey: UInt64 { get }
  /// The entry's index in its history.
  var entryIndex: Int { get }
}
