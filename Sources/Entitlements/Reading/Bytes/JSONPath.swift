/// The JSON path of the object the reader is in, step by step (`receipt`, `in_app`, `[3]`):
/// made into text only when a diagnostic names it. Eight steps are held in the path itself
/// (Apple's documents nest six at most, a page of notifications included), more in an array:
/// following the path costs no allocation.
struct JSONPath: Sendable {
  /// One step: a member's key, or an element's position.
  struct Step: Sendable {
    /// The member's key; ``KeyID/unknown`` for an element.
    var key: KeyID
    /// The element's position; -1 for a member.
    var element: Int

    static func key(_ key: KeyID) -> Step { Step(key: key, element: -1) }
    static func element(_ position: Int) -> Step { Step(key: .unknown, element: position) }
  }

  private(set) var count = 0
  private var held = (
    Step.element(0), Step.element(0), Step.element(0), Step.element(0), Step.element(0),
    Step.element(0), Step.element(0), Step.element(0)
  )
  private var more: [Step] = []
  private static let heldCount = 8

  @inline(__always)
  mutating func append(_ step: Step) {
    if count < Self.heldCount {
      withUnsafeMutableBytes(of: &held) {
        $0.storeBytes(of: step, toByteOffset: count * MemoryLayout<Step>.stride, as: Step.self)
      }
    } else {
      more.append(step)
    }
    count += 1
  }

  @inline(__always)
  mutating func removeLast() {
    count -= 1
    if count >= Self.heldCount { more.removeLast() }
  }

  /// The last step; `nil` at the top of the document.
  var last: Step? {
    guard count > 0 else { return nil }
    if count > Self.heldCount { return more.last }
    return withUnsafeBytes(of: held) {
      $0.load(fromByteOffset: (count - 1) * MemoryLayout<Step>.stride, as: Step.self)
    }
  }

  /// Keeps the first `steps` steps.
  mutating func truncate(to steps: Int) {
    while count > steps { removeLast() }
  }

  /// The steps, first to last.
  var steps: [Step] {
    var steps: [Step] = []
    withUnsafeBytes(of: held) { raw in
      for position in 0..<min(count, Self.heldCount) {
        steps.append(raw.load(fromByteOffset: position * MemoryLayout<Step>.stride, as: Step.self))
      }
    }
    return steps + more
  }
}
