/// A date as verifyReceipt writes it, in two members: `X_ms` (milliseconds, which win) and
/// `X` (a date's text, parsed only when `X_ms` is absent or unreadable, and then reported if it
/// cannot be read). ``SchemaReader/instant(_:)`` resolves it, while the bytes are read; a date
/// never asked for (a receipt's request date, when it has a creation date) reports nothing.
///
/// It holds no reference (what is read of an unusual value is kept in the reader,
/// ``IrregularDate``): the fields of an entry, five of these, cost nothing to make and drop.
struct ReceiptDate: Sendable {
  /// `X_ms`, read; `nil` when absent, null or unreadable.
  var milliseconds: Instant?
  /// Where the plain text of `X` lies in the bytes read (quotes excluded), when it is one.
  var textStart = -1
  var textEnd = -1
  /// The key of `X`, for a message, and where its diagnostic goes among the others.
  var textKey = KeyID.unknown
  var textPlace: Int32 = 0
  /// Where what was read of an unusual `X` or `X_ms` is, in the reader's
  /// ``SchemaReader/irregularDates``; -1 for none.
  var irregular: Int32 = -1
}

/// What was read of an unusual half of a ``ReceiptDate``: why `X_ms` cannot be read, and `X`
/// read tolerantly (its instant, or why it has none), each with its key and where its
/// diagnostic goes; reported only when the date is asked for and the half is the one used.
struct IrregularDate: Sendable {
  var millisecondsProblem: String?
  var millisecondsKey = KeyID.unknown
  var millisecondsPlace = 0
  var textRead = false
  var textValue: Instant?
  var textProblem: String?
}
