/// A purchase that unlocks no entitlement: a consumable, or an entry whose type cannot be
/// known without a catalog (SPEC §2).
///
/// ```swift
/// evaluation.purchaseEvents.map(\.productID)  // ["com.example.coins100"]
/// ```
public struct PurchaseEvent: Hashable, Sendable {
  /// The entry.
  public let entry: ReceiptEntry
  /// The type, when the catalog gives it (``ProductKind/consumable``); `nil` when unknown.
  public let productType: ProductKind?

  /// The product bought.
  public var productID: ProductID { entry.productID }

  /// Creates a purchase event.
  ///
  /// - Parameters:
  ///   - entry: The entry.
  ///   - productType: The type, when known.
  public init(entry: ReceiptEntry, productType: ProductKind?) {
    self.entry = entry
    self.productType = productType
  }
}
