/// A history's renewal info, one per subscription, in order of subscription: what the rules
/// look up by `original_transaction_id` (SPEC §5: renewal info describes the time after its
/// subscription's last entry).
///
/// ```swift
/// var diagnostics: [Diagnostic] = []
/// let table = RenewalInfoTable(infos, diagnostics: &diagnostics)
/// table["1000000000000001"]?.autoRenewStatus  // false
/// ```
struct RenewalInfoTable {
  /// The infos, one per subscription, in order of ``RenewalInfo/originalTransactionID``.
  let infos: [RenewalInfo]

  /// One renewal info per subscription of `infos`, in any order. Infos of one subscription
  /// that disagree keep the first in a fixed order of their fields
  /// (``RenewalInfo/precedes(_:_:)``), so that the input's order never changes the answer, and
  /// are reported in `diagnostics`.
  init(_ infos: [RenewalInfo], diagnostics: inout [Diagnostic]) {
    guard infos.count > 1 else {
      self.infos = infos
      return
    }
    let sorted = infos.sorted {
      $0.originalTransactionID != $1.originalTransactionID
        ? $0.originalTransactionID < $1.originalTransactionID : RenewalInfo.precedes($0, $1)
    }
    var unique: [RenewalInfo] = []
    for info in sorted {
      guard let kept = unique.last, kept.originalTransactionID == info.originalTransactionID
      else {
        unique.append(info)
        continue
      }
      guard kept != info else { continue }
      if diagnostics.last?.originalTransactionID != info.originalTransactionID
        || diagnostics.last?.kind != .conflictingRenewalInfo
      {
        diagnostics.append(
          Diagnostic(
            .conflictingRenewalInfo, originalTransactionID: info.originalTransactionID,
            field: "pending_renewal_info",
            message:
              "several renewal infos disagree; one was kept. Give only the newest "
              + "(the subscriber record of the reading layer does this)"))
      }
    }
    self.infos = unique
  }

  /// Whether there is no renewal info.
  var isEmpty: Bool { infos.isEmpty }

  /// The renewal info of `subscription`, if any.
  subscript(subscription: OriginalTransactionID) -> RenewalInfo? {
    let position = infos.partitionPoint { $0.originalTransactionID >= subscription }
    guard position < infos.count, infos[position].originalTransactionID == subscription else {
      return nil
    }
    return infos[position]
  }
}
