/// An identifier's value when it is written as a plain decimal number, as Apple writes every
/// `transaction_id` and `web_order_line_item_id`: 1 to 19 ASCII digits, with no leading zero
/// unless the number is `0`. Any other text has no number (``none``).
///
/// Plain numbers and their text correspond one to one, so two ids with numbers are equal
/// exactly when their numbers are; the evaluator compares numbers, where it compared strings,
/// to prove that a history's ids increase (DESIGN.md, "Performance").
///
/// ```swift
/// IdentifierNumber("1000000318407192").value  // 1000000318407192
/// IdentifierNumber("0042").isPlain            // false: a leading zero
/// ```
struct IdentifierNumber: Hashable, Sendable {
  /// The number; `UInt64.max` (more than 19 digits can hold) when there is none.
  let value: UInt64

  /// No plain number.
  static let none = IdentifierNumber(value: .max)

  private init(value: UInt64) { self.value = value }

  /// The number of a plain decimal text (1 to 19 digits, no leading zero) whose value the
  /// caller has read; the byte reader reads Apple's ids eight digits at a time.
  init(plainValue: UInt64) {
    precondition(plainValue < Self.none.value, "more than 19 digits")
    self.init(value: plainValue)
  }

  /// The number `text` writes, or ``none``.
  init(_ text: String?) {
    guard let text else {
      self = .none
      return
    }
    self.init(digits: text.utf8)
  }

  /// The number the UTF-8 bytes `digits` write, or ``none``.
  @inline(__always)
  init<Digits: Sequence<UInt8>>(digits: Digits) {
    var value: UInt64 = 0
    var count = 0
    for byte in digits {
      guard byte >= 0x30, byte <= 0x39, count < 19, count == 0 || value > 0 else {
        self = .none
        return
      }
      value = value * 10 + UInt64(byte - 0x30)
      count += 1
    }
    self = count == 0 ? .none : IdentifierNumber(value: value)
  }

  /// Whether the text was a plain number.
  var isPlain: Bool { value != .max }

  /// A strict total order on ids: plain numbers by value first, then every other id by its
  /// `String` (read only then). Strictly increasing ids in this order are all different.
  @inline(__always)
  static func precedes(
    _ a: IdentifierNumber, _ aText: @autoclosure () -> String,
    _ b: IdentifierNumber, _ bText: @autoclosure () -> String
  ) -> Bool {
    // Every plain number is below ``none``'s value, so one comparison orders plain numbers by
    // value and each before every id without a number; only two ids without numbers read
    // their text.
    a.value < b.value || (a.value == b.value && !a.isPlain && aText() < bText())
  }

  /// Whether the id `aText` comes before `bText` in `String` order, the order of the
  /// canonical tie-break (SPEC §3: "10" before "9"), given their numbers: read from the
  /// numbers with no `String` made when both are plain; else the texts are compared. As
  /// ``precedes(_:_:_:_:)``, the texts are read only when needed.
  ///
  /// Decimal texts with no leading zero compare as the shorter one against as many leading
  /// digits of the longer: before them when not above them (a prefix comes first). Making
  /// the two texts was two allocations per comparison, and a shuffled history whose entries
  /// share one purchase instant (sorted by this tie-break alone) took 8 µs per entry.
  ///
  /// ```swift
  /// IdentifierNumber.textPrecedes(IdentifierNumber("10"), "10", IdentifierNumber("9"), "9")
  /// // true, with no text read
  /// IdentifierNumber.textPrecedes(IdentifierNumber("12"), "12", IdentifierNumber("120"), "120")
  /// // true: a prefix first
  /// ```
  static func textPrecedes(
    _ a: IdentifierNumber, _ aText: @autoclosure () -> String,
    _ b: IdentifierNumber, _ bText: @autoclosure () -> String
  ) -> Bool {
    guard a.isPlain, b.isPlain else { return aText() < bText() }
    let (aDigits, bDigits) = (a.digitCount, b.digitCount)
    if aDigits == bDigits { return a.value < b.value }
    if aDigits < bDigits { return a.value <= b.value / powerOfTen(bDigits - aDigits) }
    return a.value / powerOfTen(aDigits - bDigits) < b.value
  }

  /// How many decimal digits the number has (1 for 0).
  private var digitCount: Int {
    var count = 1
    var rest = value / 10
    while rest > 0 {
      count += 1
      rest /= 10
    }
    return count
  }

  /// 10 to the power `exponent` (0 to 18).
  private static func powerOfTen(_ exponent: Int) -> UInt64 {
    var power: UInt64 = 1
    for _ in 0..<exponent { power *= 10 }
    return power
  }
}
