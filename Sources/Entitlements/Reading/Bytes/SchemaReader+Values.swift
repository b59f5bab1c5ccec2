// Scalar values: Apple's usual shape read from the bytes, any other value parsed and read
// tolerantly (``ValueMeaning``), what cannot be used reported with its JSON path.

extension SchemaReader {
  /// A string, or a number's text.
  @inline(never)
  mutating func string() throws(Stop) -> String? {
    if let text = try plainText() { return text }
    return try meaning(ValueMeaning.string)
  }

  /// An integer, as a number or a string of digits.
  @inline(never)
  mutating func integer() throws(Stop) -> Int? {
    if let integer = plainInteger() { return integer }
    return try meaning(ValueMeaning.integer)
  }

  /// A flag: Apple's spellings matched on their bytes (no `String` made), any other value
  /// read tolerantly.
  @inline(never)
  mutating func flag() throws(Stop) -> Bool? {
    skipWhitespace()
    switch peek {
    case UInt8(ascii: "\""):
      if literal("\"true\"") || literal("\"1\"") { return true }
      if literal("\"false\"") || literal("\"0\"") { return false }
    case UInt8(ascii: "t"):
      if literal("true") { return true }
    case UInt8(ascii: "f"):
      if literal("false") { return false }
    case UInt8(ascii: "0"), UInt8(ascii: "1"):
      // The numbers 0 and 1, as Apple writes autoRenewStatus.
      let start = index
      switch plainInteger() {
      case 1: return true
      case 0: return false
      default: index = start
      }
    default: break
    }
    return try meaning(ValueMeaning.flag)
  }

  /// A date as the App Store Server API writes it: milliseconds, a number.
  @inline(never)
  mutating func date() throws(Stop) -> Instant? {
    if let milliseconds = plainMillisecondsNumber() {
      return Instant(millisecondsSince1970: milliseconds)
    }
    return try meaning(ValueMeaning.instant)
  }

  /// `X` of a receipt date: its plain text kept where it lies, parsed only if `X_ms` does not
  /// give the date; any other value read now, its problem kept for then.
  @inline(never)
  mutating func receiptDateText(_ date: UnsafeMutablePointer<ReceiptDate>) throws(Stop) {
    skipWhitespace()
    date.pointee.textKey = member
    date.pointee.textPlace = Int32(truncatingIfNeeded: diagnostics.count)
    if peek == UInt8(ascii: "\""), let (start, end) = try plainString(allowSlash: false) {
      (date.pointee.textStart, date.pointee.textEnd) = (start, end)
      return
    }
    (date.pointee.textStart, date.pointee.textEnd) = (-1, -1)
    let (value, problem) = ValueMeaning.instant(try parsedValue())
    let irregular = irregularDate(of: date)
    irregularDates[irregular].textRead = true
    (irregularDates[irregular].textValue, irregularDates[irregular].textProblem) = (value, problem)
  }

  /// `X_ms` of a receipt date: a string of digits, as Apple writes it, or any other value
  /// read tolerantly, its problem kept for when the date is asked for (`X` then gives it).
  @inline(never)
  mutating func receiptDateMilliseconds(_ date: UnsafeMutablePointer<ReceiptDate>) throws(Stop) {
    if let milliseconds = plainMillisecondsString() {
      date.pointee.milliseconds = Instant(millisecondsSince1970: milliseconds)
      return
    }
    let (value, problem) = ValueMeaning.instant(try parsedValue())
    date.pointee.milliseconds = value
    let irregular = irregularDate(of: date)
    irregularDates[irregular].millisecondsProblem = problem
    irregularDates[irregular].millisecondsKey = member
    irregularDates[irregular].millisecondsPlace = diagnostics.count
  }

  /// The place in ``irregularDates`` of what is read unusually of `date`, made at first.
  private mutating func irregularDate(of date: UnsafeMutablePointer<ReceiptDate>) -> Int {
    if date.pointee.irregular < 0 {
      irregularDates.append(IrregularDate())
      date.pointee.irregular = Int32(irregularDates.count - 1)
    }
    return Int(date.pointee.irregular)
  }

  /// The instant of a receipt date: `X_ms`, else `X` (parsed now); what cannot be read of
  /// them reported where it would have been, had it been read then (the diagnostics of an
  /// object are in the order of its members). The dates of one object are resolved after
  /// ``beginResolving()``.
  @inline(__always)
  mutating func instant(_ date: ReceiptDate) -> Instant? {
    // In line, the usual date is one load of what `X_ms` stored, not a copy of the whole
    // date (a wide load of narrow stores just made, which the processor cannot forward).
    if let milliseconds = date.milliseconds { return milliseconds }
    return instantWithoutMilliseconds(date)
  }

  /// ``instant(_:)`` of a date whose `X_ms` gives none.
  @inline(never)
  private mutating func instantWithoutMilliseconds(_ date: ReceiptDate) -> Instant? {
    let irregular = date.irregular >= 0 ? irregularDates[Int(date.irregular)] : nil
    if let irregular, let problem = irregular.millisecondsProblem {
      report(problem, at: irregular.millisecondsKey, madeAt: irregular.millisecondsPlace)
    }
    if date.textStart >= 0 {
      let (value, problem) = ValueMeaning.instant(text: text(date.textStart, date.textEnd))
      if let problem { report(problem, at: date.textKey, madeAt: Int(date.textPlace)) }
      return value
    }
    guard let irregular, irregular.textRead else { return nil }
    if let problem = irregular.textProblem {
      report(problem, at: date.textKey, madeAt: Int(date.textPlace))
    }
    return irregular.textValue
  }

  /// Starts the resolving of one object's dates (``instant(_:)``).
  mutating func beginResolving() {
    if !placesReported.isEmpty { placesReported.removeAll(keepingCapacity: true) }
  }

  /// Reports the member `key` as unreadable where its diagnostic would have been made when
  /// it was read (`place`, the count of diagnostics then), after those reported so for places
  /// up to it.
  private mutating func report(_ message: String, at key: KeyID, madeAt place: Int) {
    var position = place
    for earlier in placesReported where earlier <= place { position += 1 }
    diagnostics.insert(
      Diagnostic(.unreadableField, field: pathText(appending: key), message: message),
      at: min(position, diagnostics.count))
    placesReported.append(place)
  }

  /// A transaction or order line id.
  @inline(never)
  mutating func identifier() throws(Stop) -> CompactIdentifier? {
    if let identifier = try plainIdentifier() { return identifier }
    return try meaning(ValueMeaning.string).map { CompactIdentifier($0) }
  }

  /// A product or subscription id of an entry, shared with the entries before it.
  @inline(never)
  mutating func sharedID(_ kind: SharedIDs.Kind) throws(Stop) -> String? {
    if let id = try sharedString(kind) { return id }
    return try meaning(ValueMeaning.string)
  }

  /// A product or subscription id of a decoded payload, shared with the payloads before it.
  @inline(never)
  mutating func payloadID(subscription: Bool) throws(Stop) -> String? {
    if let id = try memoString(subscription: subscription) { return id }
    return try meaning(ValueMeaning.string)
  }

  /// An environment: Apple's usual spellings matched on bytes (no `String` made), any other
  /// read as a string and named as ``StoreEnvironment/init(appleName:)`` names it.
  @inline(never)
  mutating func environment() throws(Stop) -> StoreEnvironment? {
    skipWhitespace()
    if literal("\"Production\"") { return .production }
    if literal("\"Sandbox\"") { return .sandbox }
    return try string().flatMap(StoreEnvironment.init(appleName:))
  }

  /// `in_app_ownership_type`: Apple's two spellings matched on bytes, any other as a string.
  @inline(never)
  mutating func ownershipType() throws(Stop) -> String? {
    skipWhitespace()
    if literal("\"PURCHASED\"") { return "PURCHASED" }
    if literal("\"FAMILY_SHARED\"") { return "FAMILY_SHARED" }
    return try string()
  }

  /// A transaction's `type`: Apple's four spellings matched on bytes, any other as a string.
  @inline(never)
  mutating func productType() throws(Stop) -> String? {
    skipWhitespace()
    if literal("\"Auto-Renewable Subscription\"") { return "Auto-Renewable Subscription" }
    if literal("\"Non-Consumable\"") { return "Non-Consumable" }
    if literal("\"Consumable\"") { return "Consumable" }
    if literal("\"Non-Renewing Subscription\"") { return "Non-Renewing Subscription" }
    return try string()
  }

  /// The value at ``index``, parsed by the JSON parser: one that is not in Apple's usual shape.
  mutating func parsedValue() throws(Stop) -> JSONValue {
    do throws(JSONSyntaxError) {
      return try JSONValue.value(in: bytes, at: &index, depth: depth)
    } catch {
      throw .syntax
    }
  }

  /// The value at ``index`` read by `meaning`; what it cannot use reported at the member.
  @inline(never)
  mutating func meaning<Value>(
    _ meaning: (JSONValue) -> ValueMeaning.Meaning<Value>
  ) throws(Stop) -> Value? {
    let (value, problem) = meaning(try parsedValue())
    if let problem { report(problem) }
    return value
  }

  // MARK: - Diagnostics

  /// Reports the member `key` (the member being read by default) as unreadable: why, at its
  /// JSON path.
  mutating func report(_ message: String, at key: KeyID? = nil) {
    diagnostics.append(
      Diagnostic(.unreadableField, field: pathText(appending: key ?? member), message: message))
  }

  /// Reports the value at the current path (an element of an array, an object) as unusable.
  mutating func reportHere(_ message: String) {
    diagnostics.append(Diagnostic(.unreadableField, field: pathText(), message: message))
  }

  /// The JSON path of the object being read, with `key` after it.
  func pathText(appending key: KeyID? = nil) -> String {
    var text = pathPrefix
    func append(_ name: String) { text += text.isEmpty ? name : ".\(name)" }
    for step in path.steps {
      if step.element >= 0 {
        text += "[\(step.element)]"
      } else {
        append(schemas.keys.name(of: step.key))
      }
    }
    if let key { append(schemas.keys.name(of: key)) }
    return text
  }

  /// The key of the member `property` of `table` is read from (its first name).
  func key<Fields>(of property: PartialKeyPath<Fields>, in table: Table) -> KeyID {
    let member = table.member(property)
    return member == Table.none ? .unknown : table.keys[Int(member)]
  }
}

extension Diagnostic {
  /// The diagnostic named from `top`, a JSON path its field is at or below: `quantity` for
  /// `signedTransactions[0].quantity` from `signedTransactions[0]`.
  func named(from top: String) -> Diagnostic {
    var named = self
    if field == top {
      named.field = ""
    } else if field.hasPrefix(top + ".") {
      named.field = String(field.dropFirst(top.count + 1))
    } else if field.hasPrefix(top + "[") {
      named.field = String(field.dropFirst(top.count))
    }
    return named
  }
}
