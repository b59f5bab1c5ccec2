/// A decoded payload's `commitmentInfo` (App Store Server API 1.21): a transaction's
/// (`TransactionCommitmentInfo`) or a renewal info's (`RenewalCommitmentInfo`). Their names
/// differ, so one table reads both; the payload's builder takes those of its kind.
struct CommitmentFields: AppleFields {
  var billingPeriodNumber: Int?
  var totalBillingPeriods: Int?
  var commitmentExpiresDate: Instant?
  var commitmentPrice: Int?
  var commitmentAutoRenewStatus: Bool?
  var commitmentAutoRenewProductID: String?
  var commitmentRenewalBillingPlanType: String?
  var commitmentRenewalDate: Instant?
  var commitmentRenewalPrice: Int?

  static let fields: [Field<Self>] = [
    .integer("billingPeriodNumber", \.billingPeriodNumber),
    .integer("totalBillingPeriods", \.totalBillingPeriods),
    .date("commitmentExpiresDate", \.commitmentExpiresDate),
    .integer("commitmentPrice", \.commitmentPrice),
    .flag("commitmentAutoRenewStatus", \.commitmentAutoRenewStatus),
    .string("commitmentAutoRenewProductId", \.commitmentAutoRenewProductID),
    .string("commitmentRenewalBillingPlanType", \.commitmentRenewalBillingPlanType),
    .date("commitmentRenewalDate", \.commitmentRenewalDate),
    .integer("commitmentRenewalPrice", \.commitmentRenewalPrice),
  ]
}

/// ``CommitmentFields`` in a box: what a payload's fields hold, a word that is `nil` for nearly
/// every payload, where the fields themselves (some 150 bytes) would be made empty, moved and
/// destroyed with every transaction read.
final class CommitmentBox {
  let fields: CommitmentFields
  init(_ fields: CommitmentFields) { self.fields = fields }
}

extension SchemaReader {
  /// A transaction's commitment; `nil` without one, or, reported, without its two numbers.
  @inline(never)
  mutating func transactionCommitment(_ box: CommitmentBox) -> ReceiptEntry.Commitment? {
    let fields = box.fields
    guard let number = fields.billingPeriodNumber, let total = fields.totalBillingPeriods else {
      report(
        "missing billingPeriodNumber or totalBillingPeriods: the commitment is left out",
        at: key(of: \DecodedPayloadFields.commitmentInfo, in: schemas.payload))
      return nil
    }
    return ReceiptEntry.Commitment(
      billingPeriodNumber: number, totalBillingPeriods: total,
      expiresDate: fields.commitmentExpiresDate, price: fields.commitmentPrice)
  }

  /// A renewal info's commitment; `nil` without one.
  func renewalCommitment(_ box: CommitmentBox?) -> RenewalInfo.Commitment? {
    guard let fields = box?.fields else { return nil }
    return RenewalInfo.Commitment(
      autoRenewStatus: fields.commitmentAutoRenewStatus,
      autoRenewProductID: fields.commitmentAutoRenewProductID.map(ProductID.init(rawValue:)),
      rawRenewalBillingPlanType: fields.commitmentRenewalBillingPlanType,
      renewalDate: fields.commitmentRenewalDate, renewalPrice: fields.commitmentRenewalPrice)
  }
}
