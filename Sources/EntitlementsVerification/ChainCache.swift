#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Verified chains, so that each further payload under the same certificates costs one P-256
/// verification and no chain work (issue 25).
///
/// Two indexes: by the JWS header's bytes, the fast path (Apple's header is the same for every
/// payload under one leaf, so a hit needs no base64 or JSON work and keeps the SHA-256 state
/// after the header's whole blocks); and by the `x5c` certificates' bytes, so that another
/// header over the same certificates reuses the chain. Only chains that passed are kept, and
/// only headers a verified signature was made under; never a verdict about time: validity is
/// checked per payload.
///
/// A leaf's fixed-base table (151 KB) is built on the chain's second use: a chain used once
/// does not pay for it. The cache holds at most ``capacity`` chains and headers; when full it
/// is emptied (Apple rotates leaves every few months: a cache that fills means unrelated
/// chains, not a working set).
final class ChainCache: Sendable {
  /// A header's entry: its chain, the SHA-256 state after its whole blocks, and use counts.
  struct HeaderEntry: Sendable {
    var chain: VerifiedChain
    var midstate: SHA256
    var table: KeyTable?
    var uses = 0
  }

  /// Bytes as a dictionary key, hashed in one call rather than byte by byte (a header is
  /// about 5 KB: Array's own hashing made a quarter of a notification's verification).
  struct Key: Hashable, Sendable {
    var bytes: [UInt8]

    func hash(into hasher: inout Hasher) {
      bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
  }

  struct State: Sendable {
    var headers: [Key: HeaderEntry] = [:]
    var chains: [Key: VerifiedChain] = [:]
    /// The header met last and its entry: compared first, without hashing (an app's payloads
    /// all come with the same header).
    var last: (header: [UInt8], entry: HeaderEntry)?
  }

  static let capacity = 64
  private let state = Locked(State())

  /// The entry of a header, counting this use; and whether the leaf's table should now be
  /// built.
  func lookUp(header: UnsafeBufferPointer<UInt8>) -> (entry: HeaderEntry, buildTable: Bool)? {
    state.withLock { state in
      if let last = state.last, Self.equal(last.header, header) {
        state.last?.entry.uses += 1
        let entry = last.entry
        return (entry, entry.table == nil && entry.uses + 1 == 2)
      }
      let key = Key(bytes: Array(header))
      guard var entry = state.headers[key] else { return nil }
      entry.uses += 1
      state.headers[key] = entry
      state.last = (key.bytes, entry)
      return (entry, entry.table == nil && entry.uses == 2)
    }
  }

  /// The chain of some certificates, verified before.
  func chain(certificates key: [UInt8]) -> VerifiedChain? {
    state.withLock { $0.chains[Key(bytes: key)] }
  }

  /// Keeps a verified chain, by its certificates.
  func insert(chain: VerifiedChain, certificates key: [UInt8]) {
    state.withLock { state in
      Self.makeRoom(&state)
      state.chains[Key(bytes: key)] = chain
    }
  }

  /// Keeps a header a verified signature was made under, with its chain.
  func insert(header: [UInt8], entry: HeaderEntry) {
    state.withLock { state in
      Self.makeRoom(&state)
      state.headers[Key(bytes: header)] = entry
    }
  }

  /// The number of headers and chains kept (for tests: what a refused JWS leaves behind).
  var count: (headers: Int, chains: Int) {
    state.withLock { ($0.headers.count, $0.chains.count) }
  }

  /// Empties the cache when either index is full.
  private static func makeRoom(_ state: inout State) {
    if state.headers.count >= capacity || state.chains.count >= capacity {
      state = State()
    }
  }

  /// Keeps a leaf's table for a header.
  func insert(table: KeyTable, header: UnsafeBufferPointer<UInt8>) {
    state.withLock { state in
      state.headers[Key(bytes: Array(header))]?.table = table
      if let last = state.last, Self.equal(last.header, header) { state.last?.entry.table = table }
    }
  }

  private static func equal(_ bytes: [UInt8], _ other: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count == other.count else { return false }
    return bytes.withUnsafeBytes { bytes in
      guard let left = bytes.baseAddress, let right = other.baseAddress else { return true }
      return memcmp(left, right, other.count) == 0
    }
  }
}
