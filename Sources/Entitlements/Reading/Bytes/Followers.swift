/// For each key, the key that followed it last time (``KeyID/unknown`` for none): Apple writes
/// the members of every entry in one order, so the next key is usually the predicted one
/// (``SchemaReader/readKeyAndColon(after:)``). 256 bytes held in the reader itself: no
/// allocation, no reference counting, copied with it. A reader starts from the order of the
/// schemas (``init(orderOf:)``), so that even the first object of a document is predicted.
struct Followers: Sendable {
  private var storage = (
    SIMD64<UInt8>(repeating: 255), SIMD64<UInt8>(repeating: 255),
    SIMD64<UInt8>(repeating: 255), SIMD64<UInt8>(repeating: 255)
  )

  /// The key that followed `key` last time. Read and written where it lies in the reader.
  @inline(__always)
  subscript(key: KeyID) -> KeyID {
    mutating get {
      withUnsafeMutableBytes(of: &storage) { KeyID(rawValue: $0[Int(key.rawValue)]) }
    }
    set {
      withUnsafeMutableBytes(of: &storage) { $0[Int(key.rawValue)] = newValue.rawValue }
    }
  }
}

extension Followers {
  /// Each key followed by the one after it in the first of `tables` that has it (a schema
  /// lists Apple's fields in the order Apple writes them), and the first key of an object
  /// (the one after ``KeyID/unknown``) predicted as the first of `tables`'.
  init(orderOf tables: [Table]) {
    self.init()
    var predicted = Set<KeyID>()
    if let first = tables.first, first.count > 0 {
      self[.unknown] = first.keys[0]
      predicted.insert(.unknown)
    }
    for table in tables where table.count > 1 {
      for position in 0..<table.count - 1 where predicted.insert(table.keys[position]).inserted {
        self[table.keys[position]] = table.keys[position + 1]
      }
    }
  }
}
