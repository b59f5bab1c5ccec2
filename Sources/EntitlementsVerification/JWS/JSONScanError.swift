/// JSON that a strict reader does not accept (RFC 8259), or a claim of the wrong type.
struct JSONScanError: Error, Hashable, Sendable, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
