/// A seeded random source (SplitMix64) that gives the same numbers for the same seed on every
/// platform and every Swift version: its bounded draws are its own, not the standard library's
/// `random(in:)`, whose algorithm is not promised.
///
/// ```swift
/// var random = SeededRandom(seed: 42)
/// random.int(in: 1...6)        // the same on every machine
/// random.chance(0.25)          // true about a quarter of the time
/// ```
public struct SeededRandom: RandomNumberGenerator, Sendable {
  /// The generator's state.
  public private(set) var state: UInt64

  /// Creates a generator.
  ///
  /// - Parameter seed: Any 64-bit value; the same seed, the same sequence.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform integer in a range (rejection sampling, no modulo bias).
  ///
  /// - Parameter range: The range.
  /// - Returns: A value in it.
  public mutating func int64(in range: ClosedRange<Int64>) -> Int64 {
    let span = UInt64(bitPattern: range.upperBound &- range.lowerBound) &+ 1
    if span == 0 { return Int64(bitPattern: next()) }
    let threshold = (0 &- span) % span
    while true {
      let value = next()
      if value >= threshold {
        return range.lowerBound &+ Int64(bitPattern: value % span)
      }
    }
  }

  /// A uniform integer in a range.
  ///
  /// - Parameter range: The range.
  /// - Returns: A value in it.
  public mutating func int(in range: ClosedRange<Int>) -> Int {
    Int(int64(in: Int64(range.lowerBound)...Int64(range.upperBound)))
  }

  /// `true` with the given probability.
  ///
  /// - Parameter probability: Between 0 and 1.
  /// - Returns: Whether the event happened.
  public mutating func chance(_ probability: Double) -> Bool {
    Double(next() >> 11) * 0x1.0p-53 < probability
  }

  /// One element of a non-empty array.
  ///
  /// - Parameter elements: The choices.
  /// - Returns: One of them.
  public mutating func pick<Element>(_ elements: [Element]) -> Element {
    elements[int(in: 0...(elements.count - 1))]
  }

  /// The elements in a random order (Fisher–Yates with this generator's draws).
  ///
  /// - Parameter elements: The elements.
  /// - Returns: A permutation.
  public mutating func shuffled<Element>(_ elements: [Element]) -> [Element] {
    var result = elements
    guard result.count > 1 else { return result }
    for index in stride(from: result.count - 1, to: 0, by: -1) {
      result.swapAt(index, int(in: 0...index))
    }
    return result
  }

  /// A seed derived from this one and an index, so that case `n` of a run can be replayed
  /// alone.
  ///
  /// - Parameters:
  ///   - seed: The run's seed.
  ///   - index: The case.
  /// - Returns: The case's seed.
  public static func derive(_ seed: UInt64, _ index: Int) -> UInt64 {
    var random = SeededRandom(
      seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03))
    return random.next()
  }
}
