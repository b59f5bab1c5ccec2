/// A v1 notification's `unified_receipt`: the latest transactions and renewal infos.
struct UnifiedReceiptFields: AppleFields {
  var environment: StoreEnvironment?
  var latestReceiptInfo: [ReceiptEntry] = []
  var pendingRenewalInfo: [PendingRenewalInfo] = []

  static let fields: [Field<Self>] = [
    .environment("environment", \.environment),
    .entries("latest_receipt_info", \.latestReceiptInfo),
    .renewalInfos("pending_renewal_info", \.pendingRenewalInfo),
    .ignored("status", "latest_receipt"),
  ]
}
