import Entitlements

/// Makes a failing history smaller while it still fails: drops entries, renewal info and
/// releases, removes refund, upgrade and offer flags, and shortens gaps, greedily, until no
/// smaller history fails.
///
/// ```swift
/// let small = Shrinker.shrink(failing) { !property($0) }
/// small.entries.count  // often 1 to 3
/// ```
public enum Shrinker {
  /// The smallest history found that still fails.
  ///
  /// - Parameters:
  ///   - history: A failing history.
  ///   - maximumSteps: How many successful shrinks to try at most.
  ///   - fails: Whether a history still fails.
  /// - Returns: The shrunk history and how many steps it took.
  public static func shrink(
    _ history: GeneratedHistory, maximumSteps: Int = 500,
    fails: (GeneratedHistory) -> Bool
  ) -> (history: GeneratedHistory, steps: Int) {
    var current = history
    var steps = 0
    var progress = true
    while progress, steps < maximumSteps {
      progress = false
      for candidate in candidates(current) where fails(candidate) {
        current = candidate
        steps += 1
        progress = true
        break
      }
    }
    return (current, steps)
  }

  /// Smaller variants of a history, the most aggressive first.
  static func candidates(_ history: GeneratedHistory) -> [GeneratedHistory] {
    var result: [GeneratedHistory] = []
    func with(_ change: (inout GeneratedHistory) -> Void) {
      var copy = history
      change(&copy)
      if copy != history { result.append(copy) }
    }
    if !history.releases.isEmpty {
      with { $0.releases = [] }
      with { $0.releases.removeLast(($0.releases.count + 1) / 2) }
      for index in history.releases.indices { with { $0.releases.remove(at: index) } }
    }
    if history.entries.count > 1 {
      with { $0.entries.removeLast(history.entries.count / 2) }
      with { $0.entries.removeFirst(history.entries.count / 2) }
    }
    for index in history.entries.indices { with { $0.entries.remove(at: index) } }
    with { $0.renewalInfo = [] }
    for index in history.renewalInfo.indices {
      with {
        $0.renewalInfo[index] = RenewalInfo(
          originalTransactionID: $0.renewalInfo[index].originalTransactionID)
      }
    }
    for index in history.entries.indices {
      with { $0.entries[index].cancellationDate = nil }
      with { $0.entries[index].isUpgraded = false }
      with {
        $0.entries[index].isTrialPeriod = false
        $0.entries[index].isInIntroOfferPeriod = false
        $0.entries[index].rawInAppOwnershipType = nil
      }
    }
    // Shorten the gap before each entry: move it (and its expiry) halfway towards the
    // previous expiry.
    let sorted = history.entries.indices.sorted {
      (history.entries[$0].purchaseDate ?? .distantPast)
        < (history.entries[$1].purchaseDate ?? .distantPast)
    }
    for (previous, next) in zip(sorted, sorted.dropFirst()) {
      guard let end = history.entries[previous].expiresDate,
        let start = history.entries[next].purchaseDate, start > end
      else { continue }
      let shift = FixedDuration.milliseconds(max(1, (start - end).milliseconds / 2))
      with {
        $0.entries[next].purchaseDate = start - shift
        $0.entries[next].expiresDate = $0.entries[next].expiresDate.map { $0 - shift }
        $0.entries[next].cancellationDate = $0.entries[next].cancellationDate.map { $0 - shift }
      }
    }
    return result
  }
}
