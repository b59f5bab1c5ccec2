extension [Diagnostic] {
  /// Appends a diagnostic of an unusual path, made in a function of its own.
  ///
  /// A diagnostic's message, built by string interpolation, is long code. Made here, it stays
  /// out of the loops that evaluate every entry, which then take fewer lines of the instruction
  /// cache (DESIGN.md, "Performance").
  ///
  /// ```swift
  /// diagnostics.append(
  ///   rare: Diagnostic(
  ///     .missingPurchaseDate, transactionID: id, field: "purchase_date",
  ///     message: "no purchase_date: the entry covers nothing"))
  /// ```
  @inline(never)
  mutating func append(rare diagnostic: @autoclosure () -> Diagnostic) {
    append(diagnostic())
  }
}
