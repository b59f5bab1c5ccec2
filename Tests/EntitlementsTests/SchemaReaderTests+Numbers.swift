import EntitlementsTesting
import Testing

@testable import Entitlements

// Numbers and ids read in words: every length, every near miss, every byte that ends them.

extension SchemaReaderTests {
  /// Millisecond numbers of every length (1 to 19 digits), each followed by more or fewer than
  /// the sixteen bytes the word reading needs (the end of the document comes at once, or after
  /// padding), with and without a minus sign: the value is the digits' value (`Int64` of the
  /// text); the 19 digits here are past `Int64`'s range, which the tolerant reading reports.
  @Test(arguments: 1...19)
  func numbersOfEveryLengthAreReadExactly(digits: Int) throws {
    let text = String("9876543210987654321".prefix(digits))
    for padding in ["", String(repeating: " ", count: 20)] {
      for sign in ["", "-"] {
        let json =
          #"{"transactionId": "1", "productId": "p", "purchaseDate": \#(sign)\#(text)\#(padding)}"#
        guard digits <= 18 else {
          ReaderTestSupport.expectRead(
            json,
            as: "AppStoreTransaction; purchaseDate: \(sign)\(text) is not a millisecond timestamp "
              + "in range")
          continue
        }
        ReaderTestSupport.expectRead(json, as: "AppStoreTransaction")
        let entry = try #require(try AppStoreTransaction(unverifiedJSON: Array(json.utf8)).entry)
        #expect(entry.purchaseDate?.millisecondsSince1970 == Int64(sign + text), "\(json)")
      }
    }
  }

  /// A number with a leading zero is no JSON number: of every length the two-word readings
  /// take, signed or not, with sixteen bytes after it or not, the document is refused as not
  /// JSON, where the number starts.
  @Test(arguments: 2...17)
  func numbersWithALeadingZeroAreNotRead(digits: Int) {
    let text = "0" + String("1234567890123456".prefix(digits - 1))
    for padding in ["", String(repeating: " ", count: 20)] {
      for sign in ["", "-"] {
        let json =
          #"{"transactionId": "1", "productId": "p", "purchaseDate": \#(sign)\#(text)\#(padding), "quantity": 1}"#
        #expect(DocumentReader._consistencyProblem(Array(json.utf8)) == nil, "\(json)")
        #expect(
          ReaderTestSupport.outcome(json).hasSuffix(": a number may not start with 0"), "\(json)")
      }
    }
  }

  /// A number's end is found in the word that holds it, whichever byte ends it (a brace, a
  /// comma, whitespace, a letter that makes the document invalid, a byte past `9`, which a
  /// digit test on the high nibble alone would let through, a fraction or an exponent).
  @Test(
    arguments: [
      ("}", nil), (",\"quantity\": 1}", nil), (" }", nil), ("x}", "expected ',' or '}'"),
      (":}", "expected ',' or '}'"), ("\u{7F}}", "expected ',' or '}'"),
      ("é}", "expected ',' or '}'"), (".5}", nil), ("e3}", nil), ("E3}", nil),
      ("-}", "expected ',' or '}'"), ("\"}", "expected ',' or '}'"),
    ] as [(String, String?)])
  func numbersEndWhereTheirDigitsEnd(after: String, error: String?) throws {
    for digits in [5, 8, 13, 16] {
      let number = String("1234567890123456".prefix(digits))
      let json = #"{"transactionId": "1", "productId": "p", "purchaseDate": "# + number + after
      #expect(DocumentReader._consistencyProblem(Array(json.utf8)) == nil, "\(json)")
      if let error {
        #expect(ReaderTestSupport.outcome(json).hasSuffix(error), "\(json)")
        continue
      }
      let entry = try #require(try AppStoreTransaction(unverifiedJSON: Array(json.utf8)).entry)
      // A fraction is truncated, an exponent applied (the tolerant reading of SPEC §1).
      let written = ".eE".contains(after.first ?? " ") ? number + after.dropLast() : number
      let value = try #require(Double(written))
      #expect(entry.purchaseDate?.millisecondsSince1970 == Int64(value), "\(json)")
    }
  }

  /// Transaction ids of Apple's sixteen digits, read in two words, and every near miss (a
  /// leading zero, fifteen or seventeen digits, a letter or an escape among them, no closing
  /// quote where the sixteenth digit ends): each keeps its exact text.
  @Test(arguments: [
    "2000000000000001", "9999999999999999", "1000000000000000", "0200000000000001",
    "200000000000001", "20000000000000001", "20000000000a0001", "2000000000000001 ",
    #"2000000000000\/01"#, "1",
  ])
  func sixteenDigitIDsAreReadExactly(id: String) throws {
    let json = #"{"transactionId": "\#(id)", "productId": "p", "purchaseDate": 1}"#
    ReaderTestSupport.expectRead(json, as: "AppStoreTransaction")
    let entry = try #require(try AppStoreTransaction(unverifiedJSON: Array(json.utf8)).entry)
    #expect(entry.transactionID.rawValue == id.replacingOccurrences(of: "\\/", with: "/"))
  }
}
