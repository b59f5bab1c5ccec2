import Testing

@testable import Entitlements

/// The part of a block that huge pages may back: whole 2 MiB pages inside it, none outside.
@Suite("Huge pages")
struct HugePagesTests {
  static let page = HugePages.size

  @Test(
    arguments: [
      ("aligned, one page", 0..<page, 0..<page),
      ("aligned, two pages", page..<3 * page, page..<3 * page),
      ("starts inside a page", 16..<3 * page, page..<3 * page),
      ("ends inside a page", page..<3 * page - 1, page..<2 * page),
      ("inside on both sides", 16..<4 * page + 16, page..<4 * page),
      ("one page, but not aligned", 16..<page + 16, nil),
      ("smaller than a page", page..<2 * page - 1, nil),
      ("empty", page..<page, nil),
      ("the documentation's example", 0x20_0010..<0x420_0010, 0x40_0000..<0x420_0000),
    ] as [(String, Range<Int>, Range<Int>?)])
  func interiorIsTheWholePagesInside(name: String, block: Range<Int>, expected: Range<Int>?) {
    #expect(HugePages.interior(of: block) == expected, "\(name)")
  }

  /// Mapped or not, a block holds what is written to it: one byte in each 4 KiB page and
  /// then some. A mapped block (Linux, from the threshold on) starts on a huge page and spans
  /// whole huge pages.
  @Test(arguments: [HugePages.threshold - 1, HugePages.threshold + 3 * HugePages.size + 5])
  func aBlockKeepsItsValues(bytes: Int) {
    let block = HugePages.allocate(byteCount: bytes, alignment: 16)
    defer { block.deallocate() }
    #if canImport(Glibc)
      let isMapped = bytes >= HugePages.threshold
      #expect(block.mappedLength == (isMapped ? HugePages.threshold + 4 * HugePages.size : 0))
      if isMapped { #expect(Int(bitPattern: block.base) % HugePages.size == 0) }
    #endif
    let offsets = Array(stride(from: 0, to: bytes, by: 4096 + 7))
    for (number, offset) in offsets.enumerated() {
      block.base.storeBytes(
        of: UInt8(truncatingIfNeeded: number), toByteOffset: offset, as: UInt8.self)
    }
    let read = offsets.map { block.base.load(fromByteOffset: $0, as: UInt8.self) }
    #expect(read == offsets.indices.map { UInt8(truncatingIfNeeded: $0) })
  }
}
