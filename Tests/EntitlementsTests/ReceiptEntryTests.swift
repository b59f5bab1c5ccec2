import Testing

@testable import Entitlements

/// An entry's compact storage keeps every field's value, and one value has one representation:
/// equality and hashing compare values, whatever was set before.
@Suite("Receipt entry storage")
struct ReceiptEntryTests {
  static let plain = ReceiptEntry(productID: "p", transactionID: "t", purchaseDate: nil)

  /// Each field set to a value, and every field set back to "absent".
  @Test(arguments: [
    "purchaseDate", "originalPurchaseDate", "expiresDate", "cancellationDate",
    "rawCancellationReason known", "rawCancellationReason other", "isTrialPeriod",
    "isInIntroOfferPeriod", "isUpgraded", "rawInAppOwnershipType known",
    "rawInAppOwnershipType other", "offerCodeRefName", "promotionalOfferID",
  ])
  func aFieldSetAndClearedLeavesNoTrace(name: String) {
    func set(_ entry: inout ReceiptEntry) {
      switch name {
      case "purchaseDate": entry.purchaseDate = Instant(millisecondsSince1970: 12_345)
      case "originalPurchaseDate": entry.originalPurchaseDate = .distantPast
      case "expiresDate": entry.expiresDate = .distantFuture
      case "cancellationDate": entry.cancellationDate = Instant(millisecondsSince1970: -1)
      case "rawCancellationReason known": entry.rawCancellationReason = "1"
      case "rawCancellationReason other": entry.rawCancellationReason = "7"
      case "isTrialPeriod": entry.isTrialPeriod = true
      case "isInIntroOfferPeriod": entry.isInIntroOfferPeriod = true
      case "isUpgraded": entry.isUpgraded = true
      case "rawInAppOwnershipType known": entry.rawInAppOwnershipType = "FAMILY_SHARED"
      case "rawInAppOwnershipType other": entry.rawInAppOwnershipType = "GIFTED"
      case "offerCodeRefName": entry.offerCodeRefName = "SPRING"
      case "promotionalOfferID": entry.promotionalOfferID = "promo"
      default: Issue.record("unknown field \(name)")
      }
    }
    var entry = Self.plain
    set(&entry)
    #expect(entry != Self.plain, "\(name)")
    // Clearing every field gives back the plain entry, equal and with an equal hash.
    entry.purchaseDate = nil
    entry.originalPurchaseDate = nil
    entry.expiresDate = nil
    entry.cancellationDate = nil
    entry.rawCancellationReason = nil
    entry.isTrialPeriod = false
    entry.isInIntroOfferPeriod = false
    entry.isUpgraded = false
    entry.rawInAppOwnershipType = nil
    entry.offerCodeRefName = nil
    entry.promotionalOfferID = nil
    #expect(entry == Self.plain, "\(name)")
    #expect(entry.hashValue == Self.plain.hashValue, "\(name)")
  }

  /// Every field keeps its value beside every other, through the initializer and through the
  /// setters, in any order.
  @Test func everyFieldKeepsItsValue() {
    let full = ReceiptEntry(
      productID: "p", transactionID: "t", originalTransactionID: "o", webOrderLineItemID: "w",
      quantity: 3, purchaseDate: Instant(millisecondsSince1970: 1),
      originalPurchaseDate: Instant(millisecondsSince1970: 2),
      expiresDate: Instant(millisecondsSince1970: 3),
      cancellationDate: Instant(millisecondsSince1970: 4), rawCancellationReason: "x",
      isTrialPeriod: true, isInIntroOfferPeriod: true, isUpgraded: true,
      rawInAppOwnershipType: "PURCHASED", offerCodeRefName: "code", promotionalOfferID: "promo")
    #expect(full.purchaseDate?.millisecondsSince1970 == 1)
    #expect(full.originalPurchaseDate?.millisecondsSince1970 == 2)
    #expect(full.expiresDate?.millisecondsSince1970 == 3)
    #expect(full.cancellationDate?.millisecondsSince1970 == 4)
    #expect(full.rawCancellationReason == "x")
    #expect(full.cancellationReason == nil)
    #expect(full.isTrialPeriod && full.isInIntroOfferPeriod && full.isUpgraded)
    #expect(full.rawInAppOwnershipType == "PURCHASED")
    #expect(full.inAppOwnershipType == .purchased)
    #expect(full.offerCodeRefName == "code")
    #expect(full.promotionalOfferID == "promo")

    var built = Self.plain
    built.promotionalOfferID = "promo"
    built.offerCodeRefName = "code"
    built.rawInAppOwnershipType = "PURCHASED"
    built.isUpgraded = true
    built.isInIntroOfferPeriod = true
    built.isTrialPeriod = true
    built.rawCancellationReason = "x"
    built.cancellationDate = Instant(millisecondsSince1970: 4)
    built.expiresDate = Instant(millisecondsSince1970: 3)
    built.originalPurchaseDate = Instant(millisecondsSince1970: 2)
    built.purchaseDate = Instant(millisecondsSince1970: 1)
    built.quantity = 3
    built.webOrderLineItemID = "w"
    built.originalTransactionID = "o"
    #expect(built == full)
    #expect(built.hashValue == full.hashValue)
    // A known spelling replacing an unknown one leaves no box behind, and back.
    built.rawCancellationReason = "0"
    #expect(built.cancellationReason == .other)
    built.rawCancellationReason = "x"
    #expect(built == full)
  }

  /// A copy shares the rare fields; changing the copy leaves the original as it was.
  @Test func copiesAreIndependent() {
    var original = Self.plain
    original.offerCodeRefName = "a"
    var copy = original
    copy.offerCodeRefName = "b"
    #expect(original.offerCodeRefName == "a")
    #expect(copy.offerCodeRefName == "b")
  }

  /// A quantity is kept in 4 bytes, and in the rare fields' box beyond them (and for the one
  /// 4-byte value that marks "in the box"): every quantity reads back, through the
  /// initializer and the setter alike, and one set back to 1 leaves no box behind.
  @Test(arguments: [
    1, 0, -1, 3, Int(Int32.max), Int(Int32.max) + 1, Int(Int32.min), Int(Int32.min) + 1,
    Int(Int32.min) - 1, Int.max, Int.min,
  ])
  func everyQuantityKeepsItsValue(quantity: Int) {
    let made = ReceiptEntry(
      productID: "p", transactionID: "t", quantity: quantity, purchaseDate: nil)
    var set = Self.plain
    set.quantity = quantity
    #expect(made.quantity == quantity)
    #expect(set.quantity == quantity)
    #expect(made == set)
    #expect(made.hashValue == set.hashValue)
    #expect((made == Self.plain) == (quantity == 1))
    // Another large value in place of this one, then 1 again: the plain entry.
    set.quantity = Int.max - 1
    #expect(set.quantity == Int.max - 1)
    #expect(set != made)
    set.quantity = 1
    #expect(set == Self.plain)
    #expect(set.hashValue == Self.plain.hashValue)
    // Alongside another rare field, which stays when the quantity leaves the box.
    var both = made
    both.offerCodeRefName = "code"
    both.quantity = 1
    #expect(both.offerCodeRefName == "code")
    both.offerCodeRefName = nil
    #expect(both == Self.plain)
  }

  /// The storage is what makes passes over entries cheap (DESIGN.md "Performance"): 123
  /// bytes of fields and the two ids' numbers, two cache lines.
  @Test func anEntryIsSmall() {
    #expect(MemoryLayout<ReceiptEntry>.stride <= 128)
  }
}
