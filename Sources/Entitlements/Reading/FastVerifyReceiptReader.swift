/// A byte-level reader for regular verifyReceipt responses: no `JSONValue` tree, no
/// dictionaries, numbers parsed straight from the bytes (issue: performance).
///
/// It reads only what it can read exactly as ``VerifyReceiptResponse/init(value:path:)``
/// would, with no diagnostics: any irregularity (an escape it does not handle, a field of an
/// unusual type or spelling, an iOS 6 shape, a missing id, invalid JSON) makes it give up and
/// return `nil`, and the caller reads the document with the general reader, which then
/// produces the same answer and the diagnostics. The tests compare both readers on every
/// fixture and on the robustness corpus.
struct FastVerifyReceiptReader {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0

  /// Thrown internally to give up; never escapes.
  private struct GiveUp: Error {}

  /// The keys the reader knows, matched on bytes so that no key becomes a `String`. The case
  /// names are Apple's JSON keys, spelt exactly: the table below is made from them.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  private enum Key: Int, CaseIterable {
    case status, environment, latest_receipt, receipt, latest_receipt_info
    case latest_expired_receipt_info, pending_renewal_info, auto_renew_status, expiration_intent
    case signedPayload, notificationType, notification_type
    case transaction_id, in_app, receipt_type, receipt_creation_date_ms, receipt_creation_date
    case request_date_ms, request_date, product_id, original_transaction_id
    case web_order_line_item_id, quantity, purchase_date_ms, purchase_date
    case original_purchase_date_ms, original_purchase_date, expires_date_ms, expires_date
    case expires_date_formatted, cancellation_date_ms, cancellation_date, cancellation_reason
    case is_trial_period, is_in_intro_offer_period, is_upgraded, in_app_ownership_type
    case offer_code_ref_name, promotional_offer_id, auto_renew_product_id
    case is_in_billing_retry_period, grace_period_expires_date_ms, grace_period_expires_date
    case price_consent_status
    case unknown

    var bit: UInt64 { 1 << UInt64(rawValue) }

    /// Known keys by byte length.
    static let byLength: [[(Key, [UInt8])]] = {
      var table = [[(Key, [UInt8])]](repeating: [], count: 40)
      for key in allCases where key != .unknown {
        let bytes = Array("\(key)".utf8)
        table[bytes.count].append((key, bytes))
      }
      return table
    }()
  }

  static func read(_ document: [UInt8]) -> VerifyReceiptResponse? {
    document.withUnsafeBufferPointer { buffer in
      var reader = FastVerifyReceiptReader(bytes: buffer)
      return try? reader.response()
    }
  }

  private init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  // MARK: Document

  private mutating func response() throws(GiveUp) -> VerifyReceiptResponse {
    var response = VerifyReceiptResponse(
      status: nil, environment: nil, inApp: [], latestReceiptInfo: [], renewalInfo: [],
      latestReceipt: nil, timestamp: nil, diagnostics: [])
    var receiptType: String?
    var created = DateField()
    var requested = DateField()
    var sawPending = false
    var sawTopRenewalFields = false
    // A key given twice gives up: the general reader keeps the last value, field by field.
    var seen: UInt64 = 0
    try object { reader, key throws(GiveUp) in
      if key != .unknown {
        guard seen & key.bit == 0 else { throw GiveUp() }
        seen |= key.bit
      }
      switch key {
      case .status: response.status = try reader.integer()
      case .environment:
        response.environment = Environment(appleName: try reader.string())
      case .latest_receipt: response.latestReceipt = try reader.string()
      case .receipt:
        var seenInReceipt: UInt64 = 0
        try reader.object { reader, key throws(GiveUp) in
          if key != .unknown {
            guard seenInReceipt & key.bit == 0 else { throw GiveUp() }
            seenInReceipt |= key.bit
          }
          switch key {
          case .transaction_id: throw GiveUp()  // iOS 6 style
          case .in_app: response.inApp = try reader.entries()
          case .receipt_type: receiptType = try reader.string()
          case .receipt_creation_date_ms: created.milliseconds = try reader.millisecondsString()
          case .receipt_creation_date: created.text = try reader.rawString(allowSlashEscape: false)
          case .request_date_ms: requested.milliseconds = try reader.millisecondsString()
          case .request_date: requested.text = try reader.rawString(allowSlashEscape: false)
          default: try reader.skipValue(depth: 2)
          }
        }
      case .latest_receipt_info: response.latestReceiptInfo = try reader.entries()
      case .latest_expired_receipt_info: throw GiveUp()
      case .pending_renewal_info:
        sawPending = true
        response.renewalInfo = try reader.renewalInfos()
      case .auto_renew_status, .expiration_intent:
        sawTopRenewalFields = true
        try reader.skipValue(depth: 1)
      case .signedPayload, .notificationType, .notification_type:
        throw GiveUp()  // not a verifyReceipt response (DocumentReader's order)
      default: try reader.skipValue(depth: 1)
      }
    }
    skipWhitespace()
    guard index == bytes.count else { throw GiveUp() }
    if !sawPending && sawTopRenewalFields { throw GiveUp() }  // iOS 6 renewal fields
    // What DocumentReader recognises as a verifyReceipt response.
    guard seen & (Key.status.bit | Key.receipt.bit | Key.latest_receipt_info.bit) != 0 else {
      throw GiveUp()
    }
    if let receiptType, receiptType.hasSuffix("Sandbox") { response.environment = .sandbox }
    if let creation = try instant(created) {
      response.timestamp = creation
    } else {
      response.timestamp = try instant(requested)
    }
    return response
  }

  private mutating func entries() throws(GiveUp) -> [ReceiptEntry] {
    var entries: [ReceiptEntry] = []
    try array { reader throws(GiveUp) in entries.append(try reader.entry()) }
    return entries
  }

  private mutating func renewalInfos() throws(GiveUp) -> [RenewalInfo] {
    var infos: [RenewalInfo] = []
    try array { reader throws(GiveUp) in infos.append(try reader.renewalInfo()) }
    return infos
  }

  /// Dates: `X_ms` wins; `X` is read only without `X_ms`.
  private struct DateField {
    var milliseconds: Int64?
    var text: (Int, Int)?
  }

  /// A date: `X_ms` when given, else `X`'s text parsed (decoded only then).
  private func instant(_ field: DateField) throws(GiveUp) -> Instant? {
    if let milliseconds = field.milliseconds { return Instant(millisecondsSince1970: milliseconds) }
    guard let range = field.text else { return nil }
    guard let instant = try? Instant(parsing: text(range)) else { throw GiveUp() }
    return instant
  }

  private mutating func entry() throws(GiveUp) -> ReceiptEntry {
    var product: String?
    var transaction: String?
    var original: String?
    var orderLine: String?
    var quantity: Int?
    var purchase = DateField()
    var originalPurchase = DateField()
    var expires = DateField()
    var expiresFormatted: (Int, Int)?
    var cancellation = DateField()
    var cancellationReason: String?
    var trial: Bool?
    var intro: Bool?
    var upgraded: Bool?
    var ownership: String?
    var offerCode: String?
    var promotional: String?
    // Each known key once: a repeat gives up (the general reader keeps the last value).
    var seen: UInt64 = 0
    try object { reader, key throws(GiveUp) in
      switch key {
      case .product_id:
        product = try reader.string()
      case .transaction_id:
        transaction = try reader.string()
      case .original_transaction_id:
        original = try reader.string()
      case .web_order_line_item_id:
        orderLine = try reader.string()
      case .quantity:
        quantity = try reader.integer()
      case .purchase_date_ms:
        purchase.milliseconds = try reader.millisecondsString()
      case .purchase_date:
        purchase.text = try reader.rawString(allowSlashEscape: false)
      case .original_purchase_date_ms:
        originalPurchase.milliseconds = try reader.millisecondsString()
      case .original_purchase_date:
        originalPurchase.text = try reader.rawString(allowSlashEscape: false)
      case .expires_date_ms:
        expires.milliseconds = try reader.millisecondsString()
      case .expires_date:
        expires.text = try reader.rawString(allowSlashEscape: false)
      case .expires_date_formatted:
        expiresFormatted = try reader.rawString(allowSlashEscape: false)
      case .cancellation_date_ms:
        cancellation.milliseconds = try reader.millisecondsString()
      case .cancellation_date:
        cancellation.text = try reader.rawString(allowSlashEscape: false)
      case .cancellation_reason:
        cancellationReason = try reader.string()
      case .is_trial_period:
        trial = try reader.flag()
      case .is_in_intro_offer_period:
        intro = try reader.flag()
      case .is_upgraded:
        upgraded = try reader.flag()
      case .in_app_ownership_type:
        ownership = try reader.string()
      case .offer_code_ref_name:
        offerCode = try reader.string()
      case .promotional_offer_id:
        promotional = try reader.string()
      default:
        try reader.skipValue(depth: 3)
        return
      }
      guard seen & key.bit == 0 else { throw GiveUp() }
      seen |= key.bit
    }
    guard let product, let transaction else { throw GiveUp() }
    var expiresDate = try instant(expires)
    if expiresDate == nil, let expiresFormatted {
      expiresDate = try instant(DateField(text: expiresFormatted))
    }
    return ReceiptEntry(
      productID: ProductID(product), transactionID: TransactionID(transaction),
      originalTransactionID: original.map(OriginalTransactionID.init(rawValue:)),
      webOrderLineItemID: orderLine.map(WebOrderLineItemID.init(rawValue:)),
      quantity: quantity ?? 1, purchaseDate: try instant(purchase),
      originalPurchaseDate: try instant(originalPurchase), expiresDate: expiresDate,
      cancellationDate: try instant(cancellation), rawCancellationReason: cancellationReason,
      isTrialPeriod: trial ?? false, isInIntroOfferPeriod: intro ?? false,
      isUpgraded: upgraded ?? false, rawInAppOwnershipType: ownership,
      offerCodeRefName: offerCode, promotionalOfferID: promotional)
  }

  private mutating func renewalInfo() throws(GiveUp) -> RenewalInfo {
    var subscription: String?
    var product: String?
    var autoRenewProduct: String?
    var autoRenew: Bool?
    var intent: Int?
    var retry: Bool?
    var grace = DateField()
    var consent: Bool?
    var seen: UInt64 = 0
    try object { reader, key throws(GiveUp) in
      if key != .unknown {
        guard seen & key.bit == 0 else { throw GiveUp() }
        seen |= key.bit
      }
      switch key {
      case .original_transaction_id: subscription = try reader.string()
      case .product_id: product = try reader.string()
      case .auto_renew_product_id: autoRenewProduct = try reader.string()
      case .auto_renew_status: autoRenew = try reader.flag()
      case .expiration_intent: intent = try reader.integer()
      case .is_in_billing_retry_period: retry = try reader.flag()
      case .grace_period_expires_date_ms: grace.milliseconds = try reader.millisecondsString()
      case .grace_period_expires_date: grace.text = try reader.rawString(allowSlashEscape: false)
      case .price_consent_status: consent = try reader.flag()
      default: try reader.skipValue(depth: 3)
      }
    }
    guard let subscription else { throw GiveUp() }
    return RenewalInfo(
      originalTransactionID: OriginalTransactionID(subscription),
      productID: product.map(ProductID.init(rawValue:)),
      autoRenewProductID: autoRenewProduct.map(ProductID.init(rawValue:)),
      autoRenewStatus: autoRenew, rawExpirationIntent: intent, isInBillingRetryPeriod: retry,
      gracePeriodExpiresDate: try instant(grace), priceConsentStatus: consent)
  }

  // MARK: Values

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  private mutating func expect(_ byte: UInt8) throws(GiveUp) {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == byte else { throw GiveUp() }
    index += 1
  }

  /// Calls `member` for each key of an object; the member must read or skip its value.
  private mutating func object(
    _ member: (inout FastVerifyReceiptReader, Key) throws(GiveUp) -> Void
  ) throws(GiveUp) {
    try sequence(open: UInt8(ascii: "{"), close: UInt8(ascii: "}")) { reader throws(GiveUp) in
      let key = try reader.readKey()
      try reader.expect(UInt8(ascii: ":"))
      try member(&reader, key)
    }
  }

  private mutating func array(_ element: (inout FastVerifyReceiptReader) throws(GiveUp) -> Void)
    throws(GiveUp)
  {
    try sequence(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), element)
  }

  /// `open item (, item)* close`, whitespace allowed between tokens.
  private mutating func sequence(
    open: UInt8, close: UInt8, _ item: (inout FastVerifyReceiptReader) throws(GiveUp) -> Void
  ) throws(GiveUp) {
    try expect(open)
    skipWhitespace()
    if index < bytes.count, bytes[index] == close {
      index += 1
      return
    }
    while true {
      try item(&self)
      skipWhitespace()
      guard index < bytes.count else { throw GiveUp() }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == close else { throw GiveUp() }
      index += 1
      return
    }
  }

  /// A member name, matched against the known keys on its bytes; escapes and non-ASCII give
  /// up (the general reader decodes them).
  private mutating func readKey() throws(GiveUp) -> Key {
    let (start, end) = try rawString(allowSlashEscape: false)
    let length = end - start
    guard length < Key.byLength.count else { return .unknown }
    for (key, bytes) in Key.byLength[length] {
      var equal = true
      for offset in 0..<length where self.bytes[start + offset] != bytes[offset] {
        equal = false
        break
      }
      if equal { return key }
    }
    return .unknown
  }

  /// The byte range of a string's contents: ASCII, no control characters, and no escape but
  /// `\/` when allowed. Anything else gives up.
  private mutating func rawString(allowSlashEscape: Bool) throws(GiveUp) -> (Int, Int) {
    try expect(UInt8(ascii: "\""))
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return (start, index - 1)
      }
      if byte == UInt8(ascii: "\\") {
        guard allowSlashEscape, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/")
        else { throw GiveUp() }
        index += 2
        continue
      }
      guard byte >= 0x20, byte < 0x80 else { throw GiveUp() }
      index += 1
    }
    throw GiveUp()
  }

  /// A date's text, decoded only when needed (without `_ms`).
  private func text(_ range: (Int, Int)) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range.0..<range.1]), as: UTF8.self)
  }

  /// A string whose only escape is `\/` (Apple escapes slashes); anything else gives up.
  private mutating func string() throws(GiveUp) -> String {
    try expect(UInt8(ascii: "\""))
    let start = index
    var ascii = true
    var slashes = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") { break }
      if byte == UInt8(ascii: "\\") {
        guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") else {
          throw GiveUp()
        }
        slashes = true
        index += 2
        continue
      }
      if byte < 0x20 { throw GiveUp() }
      if byte >= 0x80 { ascii = false }
      index += 1
    }
    guard index < bytes.count else { throw GiveUp() }
    let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
    index += 1
    guard ascii else { throw GiveUp() }
    if !slashes { return String(decoding: slice, as: UTF8.self) }
    var unescaped: [UInt8] = []
    unescaped.reserveCapacity(slice.count)
    var position = 0
    while position < slice.count {
      if slice[position] == UInt8(ascii: "\\") { position += 1 }
      unescaped.append(slice[position])
      position += 1
    }
    return String(decoding: unescaped, as: UTF8.self)
  }

  /// Up to 18 decimal digits (more give up: no overflow), and how many there were.
  private mutating func digits() throws(GiveUp) -> (value: Int64, count: Int) {
    var value: Int64 = 0
    var count = 0
    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
      guard count < 18 else { throw GiveUp() }  // before multiplying: no overflow
      value = value * 10 + Int64(bytes[index] - 0x30)
      count += 1
      index += 1
    }
    return (value, count)
  }

  /// A string of 1 to 18 digits, as Apple writes `*_ms`.
  private mutating func millisecondsString() throws(GiveUp) -> Int64 {
    try expect(UInt8(ascii: "\""))
    let (value, count) = try digits()
    guard count > 0, index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw GiveUp()
    }
    index += 1
    return value
  }

  /// An integer written as a JSON number or a string of digits.
  private mutating func integer() throws(GiveUp) -> Int {
    skipWhitespace()
    guard index < bytes.count else { throw GiveUp() }
    let quoted = bytes[index] == UInt8(ascii: "\"")
    if quoted { index += 1 }
    let (value, count) = try digits()
    // JSON numbers have no leading zero; a quoted "007" reads as 7, as Int("007") does.
    guard count > 0, count == 1 || quoted || bytes[index - count] != 0x30 else {
      throw GiveUp()
    }
    if quoted {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw GiveUp() }
      index += 1
    } else if index < bytes.count,
      [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index])
    {
      throw GiveUp()
    }
    return Int(value)
  }

  /// `"true"`, `"false"`, `"1"`, `"0"` or a JSON boolean.
  private mutating func flag() throws(GiveUp) -> Bool {
    skipWhitespace()
    guard index < bytes.count else { throw GiveUp() }
    if bytes[index] == UInt8(ascii: "\"") {
      switch try string() {
      case "true", "1": return true
      case "false", "0": return false
      default: throw GiveUp()
      }
    }
    if literal("true") { return true }
    if literal("false") { return false }
    throw GiveUp()
  }

  private mutating func literal(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    let matches = word.withUTF8Buffer { expected in
      (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
    }
    if matches { index += count }
    return matches
  }

  /// Skips any JSON value, checking it as strictly as the general reader would.
  private mutating func skipValue(depth: Int) throws(GiveUp) {
    guard depth < JSONValue.maximumDepth else { throw GiveUp() }
    skipWhitespace()
    guard index < bytes.count else { throw GiveUp() }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      try object { reader, _ throws(GiveUp) in try reader.skipValue(depth: depth + 1) }
    case UInt8(ascii: "["):
      try array { reader throws(GiveUp) in try reader.skipValue(depth: depth + 1) }
    case UInt8(ascii: "\""):
      _ = try rawString(allowSlashEscape: true)
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      guard literal("true") || literal("false") || literal("null") else { throw GiveUp() }
    default:
      try skipNumber()
    }
  }

  private mutating func skipNumber() throws(GiveUp) {
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count, isDigit(bytes[index]) else { throw GiveUp() }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) { throw GiveUp() }
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw GiveUp() }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else { throw GiveUp() }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
  }
}
