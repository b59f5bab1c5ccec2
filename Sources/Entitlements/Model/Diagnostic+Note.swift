extension [Diagnostic] {
  /// Appends the diagnostic that `make` makes, in a function of its own.
  ///
  /// The rules make a diagnostic on an unusual path only, and its message, built by string
  /// interpolation, is long code: made here, it stays out of the loops that evaluate every
  /// entry, which then take fewer lines of the instruction cache (DESIGN.md, "Performance").
  ///
  /// ```swift
  /// diagnostics.note {
  ///   Diagnostic(.missingPurchaseDate, transactionID: id, field: "purchase_date",
  ///     message: "no purchase_date: the entry covers nothing")
  /// }
  /// ```
  @inline(never)
  mutating func note(_ make: () -> Diagnostic) {
    append(make())
  }
}
