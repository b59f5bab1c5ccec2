import Testing

@testable import Entitlements

/// Ids written as plain decimal numbers have a number; every other text has none.
@Suite("Identifier numbers")
struct IdentifierNumberTests {
  @Test(arguments: [
    ("1000000318407192", 1_000_000_318_407_192 as UInt64?),
    ("0", 0), ("7", 7), ("500000000", 500_000_000),
    ("9999999999999999999", 9_999_999_999_999_999_999),  // 19 digits: the most
    ("10000000000000000000", nil),  // 20 digits
    ("", nil), ("00", nil), ("0042", nil), ("12a", nil), ("-1", nil), (" 1", nil),
    ("1.0", nil), ("１２", nil),  // fullwidth digits are not ASCII digits
  ])
  func plainNumbersOnly(text: String, expected: UInt64?) {
    let number = IdentifierNumber(text)
    #expect(number.isPlain == (expected != nil))
    if let expected { #expect(number.value == expected) }
  }

  /// `precedes` is a strict total order: plain numbers by value, before every other id, and
  /// those by their text. Checked on every pair of a set mixing both kinds.
  @Test func precedesOrdersPlainNumbersFirstThenText() {
    let ids = [
      "0", "7", "9", "10", "500000000", "9999999999999999999", "10000000000000000000", "0042",
      "12a", "", "x", "9a", "1x",
    ]
    func expected(_ a: String, _ b: String) -> Bool {
      let (x, y) = (IdentifierNumber(a), IdentifierNumber(b))
      if x.isPlain && y.isPlain { return x.value < y.value }
      if x.isPlain != y.isPlain { return x.isPlain }
      return a < b
    }
    for a in ids {
      for b in ids {
        let result = IdentifierNumber.precedes(IdentifierNumber(a), a, IdentifierNumber(b), b)
        #expect(result == expected(a, b), "\(a) before \(b)")
        if a == b { #expect(!result, "\(a) before itself") }
        if a != b {
          let reverse = IdentifierNumber.precedes(IdentifierNumber(b), b, IdentifierNumber(a), a)
          #expect(result != reverse, "\(a), \(b): exactly one comes first")
        }
      }
    }
  }

  @Test func noTextHasNoNumber() {
    #expect(IdentifierNumber(nil) == .none)
  }

  /// An entry keeps its ids' numbers whichever way the ids are set, so equal entries stay
  /// equal and hash alike.
  @Test func entriesKeepTheirIdsNumbers() {
    var entry = ReceiptEntry(productID: "p", transactionID: "12", purchaseDate: nil)
    #expect(entry.transactionNumber.value == 12)
    #expect(entry.orderLineNumber == .none)
    entry.transactionID = "x"
    entry.webOrderLineItemID = "34"
    #expect(entry.transactionNumber == .none)
    #expect(entry.orderLineNumber.value == 34)
    entry.transactionID.rawValue = "56"
    #expect(entry.transactionNumber.value == 56)
    let built = ReceiptEntry(
      productID: "p", transactionID: "56", originalTransactionID: "12",
      webOrderLineItemID: "34", purchaseDate: nil)
    #expect(entry == built)
    #expect(entry.hashValue == built.hashValue)
    entry.webOrderLineItemID = nil
    #expect(entry.orderLineNumber == .none)
  }
}
