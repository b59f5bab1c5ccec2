import EntitlementsTesting
import Testing

@testable import Entitlements

// Numbers and ids read in words: every length, every near miss, every byte that ends them.

extension FastDocumentReaderTests {
  /// Millisecond numbers of every length the reader takes (1 to 18 digits) and one too long,
  /// each followed by more or fewer than the sixteen bytes the word reading needs (the end of
  /// the document comes at once, or after padding), with and without a minus sign: the value
  /// is the digits' value, where both readers agree; 19 digits give up, and the general reader
  /// answers.
  @Test(arguments: 1...19)
  func numbersOfEveryLengthAreReadExactly(digits: Int) throws {
    let text = String("9876543210987654321".prefix(digits))
    for padding in ["", String(repeating: " ", count: 20)] {
      for sign in ["", "-"] {
        let json =
          #"{"transactionId": "1", "productId": "p", "purchaseDate": \#(sign)\#(text)\#(padding)}"#
        let result = Self.agree(Array(json.utf8))
        #expect(result.agree, "\(json)")
        #expect(result.fast == (digits <= 18), "\(json)")
        if digits <= 18 {
          let entry = try #require(try AppStoreTransaction(json: Array(json.utf8)).entry)
          #expect(
            entry.purchaseDate?.millisecondsSince1970 == Int64(sign + text), "\(json)")
        }
      }
    }
  }
  /// A number with a leading zero is no JSON number: of every length the two-word readings
  /// take, signed or not, with sixteen bytes after it or not, the byte-level reader leaves it to
  /// the general reader, which refuses it.
  @Test(arguments: 2...17)
  func numbersWithALeadingZeroAreNotRead(digits: Int) {
    let text = "0" + String("1234567890123456".prefix(digits - 1))
    for padding in ["", String(repeating: " ", count: 20)] {
      for sign in ["", "-"] {
        let json =
          #"{"transactionId": "1", "productId": "p", "purchaseDate": \#(sign)\#(text)\#(padding), "quantity": 1}"#
        let result = Self.agree(Array(json.utf8))
        #expect(result.agree && !result.fast, "\(json)")
      }
    }
  }

  /// A number's end is found in the word that holds it, whichever byte ends it (a brace, a
  /// comma, whitespace, a letter that makes the document invalid, a byte past `9`, which a
  /// digit test on the high nibble alone would let through, a fraction or an exponent).
  @Test(arguments: [
    "}", ",\"quantity\": 1}", " }", "x}", ":}", "\u{7F}}", "é}", ".5}", "e3}", "E3}", "-}",
    "\"}",
  ])
  func numbersEndWhereTheirDigitsEnd(after: String) {
    for digits in [5, 8, 13, 16] {
      let json =
        #"{"transactionId": "1", "productId": "p", "purchaseDate": "#
        + String("1234567890123456".prefix(digits)) + after
      #expect(Self.agree(Array(json.utf8)).agree, "\(json)")
    }
  }

  /// Transaction ids of Apple's sixteen digits, read in two words, and every near miss (a
  /// leading zero, fifteen or seventeen digits, a letter or an escape among them, no closing
  /// quote where the sixteenth digit ends): each keeps its exact text, as the general reader
  /// reads it.
  @Test(arguments: [
    "2000000000000001", "9999999999999999", "1000000000000000", "0200000000000001",
    "200000000000001", "20000000000000001", "20000000000a0001", "2000000000000001 ",
    #"2000000000000\/01"#, "1",
  ])
  func sixteenDigitIDsAreReadExactly(id: String) throws {
    let json = #"{"transactionId": "\#(id)", "productId": "p", "purchaseDate": 1}"#
    let result = Self.agree(Array(json.utf8))
    #expect(result.agree, "\(json)")
    if result.fast {
      let entry = try #require(try AppStoreTransaction(json: Array(json.utf8)).entry)
      #expect(entry.transactionID.rawValue == id.replacingOccurrences(of: "\\/", with: "/"))
    }
  }
}
