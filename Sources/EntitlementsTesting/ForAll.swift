import Entitlements
import Testing

/// A failure of a property: the seed to replay, the history that failed, and the smallest
/// history that still fails.
public struct PropertyFailure: Sendable, CustomStringConvertible {
  /// The seed of the run.
  public var seed: UInt64
  /// The failing case's position in the run.
  public var caseIndex: Int
  /// The history as generated.
  public var original: GeneratedHistory
  /// The smallest history found that still fails.
  public var shrunk: GeneratedHistory
  /// How many shrinking steps were taken.
  public var shrinkSteps: Int

  /// The report: seed, case, and the shrunk history.
  public var description: String {
    """
    property failed (seed \(seed), case \(caseIndex); replay with \
    HistoryGenerator.generate(seed: \(original.seed))); shrunk from \(original.entries.count) \
    to \(shrunk.entries.count) entries in \(shrinkSteps) steps:
    \(shrunk)
    """
  }
}

/// Runs a property over generated histories and returns the first failure, shrunk; `nil`
/// when every case holds. ``forAll(_:seed:generator:sourceLocation:_:)`` records the failure
/// as a test issue; this returns it, to test the tester.
///
/// ```swift
/// let failure = checkProperty(200, seed: 1) { $0.evaluate().entitlements.count < 2 }
/// failure?.shrunk.entries.count  // small
/// ```
///
/// - Parameters:
///   - count: How many histories.
///   - seed: The run's seed; case `n` uses `SeededRandom.derive(seed, n)`.
///   - generator: The history generator.
///   - property: The law: `true` when it holds.
/// - Returns: The first failure, shrunk, or `nil`.
public func checkProperty(
  _ count: Int, seed: UInt64, generator: HistoryGenerator = HistoryGenerator(),
  _ property: (GeneratedHistory) -> Bool
) -> PropertyFailure? {
  for index in 0..<count {
    let history = generator.generate(seed: SeededRandom.derive(seed, index))
    guard !property(history) else { continue }
    let (shrunk, steps) = Shrinker.shrink(history) { !property($0) }
    return PropertyFailure(
      seed: seed, caseIndex: index, original: history, shrunk: shrunk, shrinkSteps: steps)
  }
  return nil
}

/// Checks a property over `count` generated histories, for Swift Testing: a failure is
/// recorded as an issue with the seed, the case and the shrunk history.
///
/// ```swift
/// @Test(arguments: [1, 2, 3] as [UInt64])
/// func refundNeverAddsAccess(seed: UInt64) {
///   forAll(500, seed: seed) { customer in … }
/// }
/// ```
///
/// - Parameters:
///   - count: How many histories.
///   - seed: The run's seed.
///   - generator: The history generator.
///   - sourceLocation: Where the failure is reported.
///   - property: The law: `true` when it holds.
public func forAll(
  _ count: Int, seed: UInt64, generator: HistoryGenerator = HistoryGenerator(),
  sourceLocation: SourceLocation = #_sourceLocation,
  _ property: (GeneratedHistory) -> Bool
) {
  if let failure = checkProperty(count, seed: seed, generator: generator, property) {
    Issue.record("\(failure)", sourceLocation: sourceLocation)
  }
}
