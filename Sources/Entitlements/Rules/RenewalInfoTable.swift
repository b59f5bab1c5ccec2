/// A history's renewal info, one per subscription, in order of subscription: what the rules
/// look up by `original_transaction_id` (SPEC §5: renewal info describes the time after its
/// subscription's last entry).
///
/// A history has one renewal info per subscription it names, usually one: a list searched in
/// order finds it with a comparison or two, where a dictionary hashed the id's text at every
/// lookup and allocated a table per evaluation (issue: performance; with renewal info, an
/// evaluation of 24 entries took half again as many instructions as one without). Past
/// ``linearLimit`` infos, a lookup is a binary search.
///
/// ```swift
/// var diagnostics: [Diagnostic] = []
/// let table = RenewalInfoTable(infos, diagnostics: &diagnostics)
/// table["1000000000000001"]?.autoRenewStatus  // false
/// ```
struct RenewalInfoTable {
  /// How many infos are searched in order; more are searched by halves.
  static let linearLimit = 8

  /// The infos, one per subscription, in order of ``RenewalInfo/originalTransactionID``.
  let infos: [RenewalInfo]

  private init(sortedUnique infos: [RenewalInfo]) {
    self.infos = infos
  }

  /// One renewal info per subscription of `infos`, in any order. Duplicates that disagree keep
  /// a fixed one (the least by its debug description, so that the input's order never changes
  /// the answer) and are reported in `diagnostics`, one per subscription in order.
  init(_ infos: [RenewalInfo], diagnostics: inout [Diagnostic]) {
    guard infos.count > 1 else {
      self.init(sortedUnique: infos)
      return
    }
    var sorted = infos
    if !infos.indices.dropFirst().allSatisfy({
      infos[$0 - 1].originalTransactionID < infos[$0].originalTransactionID
    }) {
      sorted.sort { $0.originalTransactionID < $1.originalTransactionID }
    }
    var unique: [RenewalInfo] = []
    unique.reserveCapacity(sorted.count)
    var start = 0
    while start < sorted.count {
      let subscription = sorted[start].originalTransactionID
      var end = start + 1
      while end < sorted.count, sorted[end].originalTransactionID == subscription { end += 1 }
      let run = sorted[start..<end]
      guard let first = run.first, run.contains(where: { $0 != first }) else {
        unique.append(sorted[start])
        start = end
        continue
      }
      let kept = run.min { String(reflecting: $0) < String(reflecting: $1) } ?? first
      unique.append(kept)
      diagnostics.append(
        Diagnostic(
          .conflictingRenewalInfo, originalTransactionID: subscription,
          field: "pending_renewal_info",
          message:
            "several renewal infos disagree; one was kept. Give only the newest "
            + "(the subscriber record of the reading layer does this)"))
      start = end
    }
    self.init(sortedUnique: unique)
  }

  /// Whether there is no renewal info.
  var isEmpty: Bool { infos.isEmpty }

  /// The renewal info of `subscription`, if any.
  subscript(subscription: OriginalTransactionID) -> RenewalInfo? {
    // Ids are compared in place, and only the info found is copied (a copy retains its
    // strings).
    guard infos.count > Self.linearLimit else {
      for index in infos.indices where infos[index].originalTransactionID == subscription {
        return infos[index]
      }
      return nil
    }
    let position = infos.partitionPoint { $0.originalTransactionID >= subscription }
    guard position < infos.count, infos[position].originalTransactionID == subscription else {
      return nil
    }
    return infos[position]
  }
}
