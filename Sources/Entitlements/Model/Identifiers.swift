/// Typed identifiers: a product id cannot be passed where a transaction id is expected.
///
/// Each is a small wrapper of Apple's string, `ExpressibleByStringLiteral` for tests and
/// scenarios, ordered by its raw value so that every list the engine returns has one order.
///
/// ```swift
/// let product: ProductID = "com.example.magazine.monthly"
/// let transaction: TransactionID = "1000000318407192"
/// ```
public protocol TypedIdentifier: RawRepresentable, Hashable, Comparable, Sendable,
  ExpressibleByStringLiteral, CustomStringConvertible
where RawValue == String {
  /// Creates the identifier from Apple's string.
  init(rawValue: String)
}

extension TypedIdentifier {
  /// Creates the identifier from a string literal.
  public init(stringLiteral value: String) { self.init(rawValue: value) }
  /// Creates the identifier from Apple's string.
  public init(_ rawValue: String) { self.init(rawValue: rawValue) }
  /// Apple's string.
  public var description: String { rawValue }
  /// Orders identifiers by their raw string.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A product identifier from App Store Connect (`product_id`, `productId`).
public struct ProductID: TypedIdentifier {
  /// Apple's string.
  public var rawValue: String
  /// Creates the identifier from Apple's string.
  public init(rawValue: String) { self.rawValue = rawValue }
}

/// One purchase event: a purchase, a renewal, a restore (`transaction_id`, `transactionId`).
public struct TransactionID: TypedIdentifier {
  /// Apple's string.
  public var rawValue: String
  /// Creates the identifier from Apple's string.
  public init(rawValue: String) { self.rawValue = rawValue }
}

/// The transaction that started a subscription, shared by all its renewals
/// (`original_transaction_id`, `originalTransactionId`).
public struct OriginalTransactionID: TypedIdentifier {
  /// Apple's string.
  public var rawValue: String
  /// Creates the identifier from Apple's string.
  public init(rawValue: String) { self.rawValue = rawValue }
}

/// The key of one subscription purchase event across devices and restores
/// (`web_order_line_item_id`, `webOrderLineItemId`).
public struct WebOrderLineItemID: TypedIdentifier {
  /// Apple's string.
  public var rawValue: String
  /// Creates the identifier from Apple's string.
  public init(rawValue: String) { self.rawValue = rawValue }
}

/// What a customer may use ("premium", "magazine"): the unit the engine answers about
/// (SPEC §2). Several products may unlock one entitlement.
public struct EntitlementID: TypedIdentifier {
  /// The entitlement's name.
  public var rawValue: String
  /// Creates the identifier.
  public init(rawValue: String) { self.rawValue = rawValue }
}

/// One piece of content released over time: a magazine issue, an episode (SPEC §8).
public struct ReleaseID: TypedIdentifier {
  /// The release's name.
  public var rawValue: String
  /// Creates the identifier.
  public init(rawValue: String) { self.rawValue = rawValue }
}
