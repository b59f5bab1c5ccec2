import EntitlementsTesting
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

  /// `textPrecedes` is `String` order, read from the numbers when both are plain: on every pair of a set with
  /// prefixes, equal lengths, 0, 19 digits and the doc comment's examples, and on seeded
  /// random pairs of lengths 1 to 19 that often share leading digits.
  @Test func textPrecedesIsStringOrder() {
    let ids = [
      "0", "1", "7", "9", "10", "12", "120", "121", "119", "1200", "99", "100", "1000000318407192",
      "1000000318407193", "100000031840719", "9999999999999999999", "1000000000000000000",
      "1999999999999999999",
    ]
    for a in ids {
      for b in ids {
        #expect(
          IdentifierNumber.textPrecedes(IdentifierNumber(a), a, IdentifierNumber(b), b) == (a < b),
          "\(a) before \(b)")
      }
    }
    var random = SeededRandom(seed: 23)
    print("textPrecedesIsStringOrder: seed 23")
    for _ in 0..<20_000 {
      let prefix = String(random.int64(in: 1...999_999))
      func id() -> String {
        let tail = (0..<Int(random.int64(in: 0...13))).map { _ in String(random.int64(in: 0...9)) }
        return String((random.chance(0.5) ? prefix : "") + tail.joined()).prefix(19).description
      }
      let (a, b) = (id(), id())
      guard IdentifierNumber(a).isPlain, IdentifierNumber(b).isPlain else { continue }
      #expect(
        IdentifierNumber.textPrecedes(IdentifierNumber(a), a, IdentifierNumber(b), b) == (a < b),
        "\(a) before \(b)")
    }
    // Ids with no number are compared as text; plain numbers' texts are never read.
    for (a, b) in [("1x", "2"), ("2", "1x"), ("a", "b"), ("10", "1x")] {
      #expect(
        IdentifierNumber.textPrecedes(IdentifierNumber(a), a, IdentifierNumber(b), b) == (a < b))
    }
    // Outside `#expect`, which evaluates the arguments it shows.
    let tenFirst = IdentifierNumber.textPrecedes(
      IdentifierNumber("10"),
      {
        Issue.record("text read")
        return "10"
      }(),
      IdentifierNumber("9"),
      {
        Issue.record("text read")
        return "9"
      }())
    #expect(tenFirst)
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

  /// Ids as an entry keeps them (`CompactIdentifier`): a plain number with no `String`, any
  /// other text as it is. Each reads back exactly, through the initializer, the setters and
  /// the byte reader, and equal ids give equal, equally hashed entries.
  @Test(arguments: [
    "1000000318407192", "0", "7", "9999999999999999999", "10000000000000000000", "", "00",
    "0042", "12a", "-1", " 1", "1.0", "１２", "1000000318407192 ", "x/y",
  ])
  func entriesKeepEveryIdExactly(text: String) throws {
    let compact = CompactIdentifier(text)
    #expect(compact.text == text)
    #expect(compact.isPresent)
    #expect(compact.number == IdentifierNumber(text))
    #expect(compact == CompactIdentifier(number: IdentifierNumber(text), text: text))

    let built = ReceiptEntry(
      productID: "p", transactionID: TransactionID(text), originalTransactionID: "o",
      webOrderLineItemID: WebOrderLineItemID(text), purchaseDate: nil)
    #expect(built.transactionID.rawValue == text)
    #expect(built.webOrderLineItemID?.rawValue == text)
    #expect(built.transactionNumber == IdentifierNumber(text))
    #expect(built.orderLineNumber == IdentifierNumber(text))
    var set = ReceiptEntry(
      productID: "p", transactionID: "99", originalTransactionID: "o", purchaseDate: nil)
    set.transactionID = TransactionID(text)
    set.webOrderLineItemID = WebOrderLineItemID(text)
    #expect(set == built)
    #expect(set.hashValue == built.hashValue)
    set.webOrderLineItemID = nil
    #expect(set.webOrderLineItemID == nil)
    #expect(set.orderLineNumber == .none)

    // Read from a document.
    let escaped = text.replacingOccurrences(of: "/", with: "\\/")
    let json =
      #"{"status": 0, "latest_receipt_info": [{"product_id": "p", "transaction_id": ""#
      + escaped + #"", "original_transaction_id": "o", "web_order_line_item_id": ""# + escaped
      + #"", "purchase_date_ms": "1"}]}"#
    let read = try #require(
      try VerifyReceiptResponse(unverifiedJSON: Array(json.utf8)).entries.first)
    #expect(read.transactionID.rawValue == text)
    #expect(read.webOrderLineItemID?.rawValue == text)
    #expect(read.transactionNumber == IdentifierNumber(text))
  }

  @Test func anAbsentIdHasNoText() {
    #expect(CompactIdentifier.absent.text == nil)
    #expect(!CompactIdentifier.absent.isPresent)
    #expect(CompactIdentifier.absent != CompactIdentifier(""))
  }

  /// The byte reader reads ids of 8 to 16 bytes eight digits at a time: ids of every length
  /// from 1 to 20, with a leading zero, or with a byte just outside the digits ("/" and ":")
  /// or a letter at each position, get the number their text has.
  @Test func idsOfEveryLengthReadAsTheirText() throws {
    var random = SeededRandom(seed: 11)
    var ids: [String] = []
    for length in 1...20 {
      let digits = (0..<length).map { index in
        Character(String(random.int64(in: index == 0 ? 1...9 : 0...9)))
      }
      ids.append(String(digits))
      ids.append("0" + String(digits.dropFirst()))
      for position in 0..<length {
        for other: Character in ["/", ":", "a"] {
          var changed = digits
          changed[position] = other
          ids.append(String(changed))
        }
      }
    }
    let entries = ids.enumerated().map { index, id in
      #"{"product_id": "p", "transaction_id": ""# + id
        + #"", "original_transaction_id": "o", "web_order_line_item_id": ""# + id
        + #"", "purchase_date_ms": ""# + String(index + 1) + #""}"#
    }
    let json = #"{"status": 0, "latest_receipt_info": ["# + entries.joined(separator: ",") + "]}"
    let bytes = Array(json.utf8)
    let response = try VerifyReceiptResponse(unverifiedJSON: bytes)
    #expect(response.diagnostics.isEmpty)
    let read = response.entries
    try #require(read.count == ids.count)
    for (entry, id) in zip(read, ids) {
      #expect(entry.transactionNumber == IdentifierNumber(id), "\(id)")
      #expect(entry.orderLineNumber == IdentifierNumber(id), "\(id)")
      #expect(entry.transactionID.rawValue == id)
    }
  }
}
