/// Content released at an instant, such as a magazine issue (SPEC §8).
///
/// ```swift
/// let march = Release(id: "2017-03", date: try Instant(parsing: "2017-03-01"))
/// ```
public struct Release: Hashable, Sendable {
  /// The release.
  public var id: ReleaseID
  /// When it was released.
  public var date: Instant
  /// The entitlement that reads it; `nil` for content of every entitlement (the usual case of
  /// an app with one).
  public var entitlement: EntitlementID?

  /// Creates a release.
  ///
  /// - Parameters:
  ///   - id: The release.
  ///   - date: When it was released.
  ///   - entitlement: The entitlement that reads it; `nil` for any.
  public init(id: ReleaseID, date: Instant, entitlement: EntitlementID? = nil) {
    self.id = id
    self.date = date
    self.entitlement = entitlement
  }
}
