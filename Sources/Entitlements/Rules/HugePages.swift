#if canImport(Glibc)
  import Glibc
#endif

/// Asks Linux to back a large working block with huge pages (2 MiB instead of 4 KiB), before
/// the block is first written.
///
/// A block of at least 32 MiB (``threshold``) is one glibc maps on its own for each
/// allocation and unmaps when it is freed: its pages are fresh each time. With 4 KiB pages,
/// the canonical values of 10⁶ shuffled entries (then 96 MB) took 23 400 page faults per
/// evaluation, and scattering values into them missed the translation cache on nearly every
/// write; with huge pages, 48 faults. The evaluation of 10⁶ shuffled entries went from about
/// 100 ms to about 60 ms, and 10⁵ entries (a smaller block, left alone) did not change
/// (issue: performance; DESIGN.md "Performance"). The block is now ``PurchaseBuckets``'
/// (about 51 MB at 10⁶ entries).
///
/// The advice is `madvise(MADV_HUGEPAGE)` on the block's 2 MiB-aligned interior: it holds for
/// that memory only, and ends when glibc unmaps the block. A process that raised glibc's
/// thresholds (`GLIBC_TUNABLES`, README "Performance") gets such a block from the heap
/// instead: the advice then stays with that heap memory after the block is freed, which
/// only lets the kernel back it with huge pages later too. Elsewhere (Darwin), or when the
/// system does not grant it, nothing changes but the speed: the library's results never
/// depend on it. With Linux's default (`defrag` set to `madvise`), the first write to each
/// huge page of an advised block may compact memory to find one: on a host whose memory is
/// fragmented, that evaluation's first touches can take longer.
///
/// ```swift
/// HugePages.interior(of: 0x20_0010..<0x420_0010)  // 0x40_0000..<0x420_0000
/// ```
enum HugePages {
  /// The smallest block advised: glibc's largest threshold for mapping a block on its own.
  static let threshold = 32 << 20

  /// The size of a huge page on x86-64 and arm64 Linux.
  static let size = 2 << 20

  /// Advises huge pages for `block` when it is at least ``threshold`` bytes.
  static func advise(_ block: UnsafeMutableRawBufferPointer) {
    #if canImport(Glibc)
      guard block.count >= threshold, let base = block.baseAddress else { return }
      let start = Int(bitPattern: base)
      guard let interior = interior(of: start..<start + block.count) else { return }
      // Only advice: refused (no transparent huge pages), the block works as it is.
      _ = madvise(
        UnsafeMutableRawPointer(bitPattern: interior.lowerBound), interior.count, MADV_HUGEPAGE)
    #endif
  }

  /// The addresses of `block` that whole huge pages cover; `nil` when none does.
  static func interior(of block: Range<Int>) -> Range<Int>? {
    let start = (block.lowerBound + size - 1) & ~(size - 1)
    let end = block.upperBound & ~(size - 1)
    return start < end ? start..<end : nil
  }
}
