/// An identifier as a ``ReceiptEntry`` keeps it: its ``IdentifierNumber`` when it is a plain
/// number, with no `String` kept; its text otherwise; or absent.
///
/// Apple writes every `transaction_id` and `web_order_line_item_id` as a 16-digit number: a
/// `String` of that length is not stored inline (15 bytes at most), so each id read was an
/// allocation, freed with the entry. A plain number and its text correspond one to one, so
/// the text is made again, exactly, when it is asked for (issue: performance; DESIGN.md
/// "Performance"). Each id has one representation, so `==` and `hash(into:)` compare ids.
///
/// ```swift
/// CompactIdentifier("1000000318407192").text  // "1000000318407192", no String stored
/// CompactIdentifier("0042").number.isPlain     // false: the text is stored
/// CompactIdentifier.absent.text                // nil
/// ```
struct CompactIdentifier: Hashable, Sendable {
  /// The id's number; ``IdentifierNumber/none`` when it has none, or is absent.
  let number: IdentifierNumber
  /// The id's text when it is not a plain number; `nil` for a plain number, or absent.
  private let storedText: String?

  /// No identifier.
  static let absent = CompactIdentifier(number: .none, storedText: nil)

  private init(number: IdentifierNumber, storedText: String?) {
    self.number = number
    self.storedText = storedText
  }

  /// The identifier `text`.
  init(_ text: String) {
    self.init(number: IdentifierNumber(text), text: text)
  }

  /// The identifier `text`, whose number the caller has read already: `text` is called only
  /// when `number` is not a plain number.
  @inline(__always)
  init(number: IdentifierNumber, text: @autoclosure () -> String) {
    self.init(number: number, storedText: number.isPlain ? nil : text())
  }

  /// Whether there is an identifier.
  var isPresent: Bool { number.isPlain || storedText != nil }

  /// The identifier's text; `nil` when absent.
  ///
  /// Out of line: the evaluator's pass reads the text of an id only on its rare paths (ids
  /// that are not plain numbers, ties, diagnostics), so making a number's text stays out of
  /// the pass's code.
  var text: String? {
    @inline(never) get { number.isPlain ? String(number.value) : storedText }
  }
}
