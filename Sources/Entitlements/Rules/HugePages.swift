#if canImport(Glibc)
  import Glibc
#endif

/// A large working block backed by huge pages (2 MiB instead of 4 KiB) under Linux: mapped by
/// the library, aligned to huge pages, and advised them before it is first written.
///
/// A block of at least 32 MiB (``threshold``) is one glibc maps on its own for each
/// allocation and unmaps when it is freed: its pages are fresh each time. With 4 KiB pages,
/// the canonical values of 10⁶ shuffled entries (then 96 MB) took 23 400 page faults per
/// evaluation, and scattering values into them missed the translation cache on nearly every
/// write; with huge pages, 48 faults. The evaluation of 10⁶ shuffled entries went from about
/// 100 ms to about 60 ms, and 10⁵ entries (a smaller block, left alone) did not change
/// (issue: performance; DESIGN.md "Performance"). The block is now ``PurchaseBuckets``'
/// (about 51 MB at 10⁶ entries), and the library maps it itself
/// (``allocate(byteCount:alignment:)``): glibc sometimes served it from its heap instead.
///
/// The advice is `madvise(MADV_HUGEPAGE)` on the whole block: it holds for that memory only,
/// and ends when the block is unmapped. Elsewhere (Darwin), or when mapping fails, the block
/// comes from the allocator; when the system does not grant huge pages, nothing changes but
/// the speed: the library's results never depend on it. With Linux's default (`defrag` set to
/// `madvise`), the first write to each huge page of an advised block may compact memory to
/// find one: on a host whose memory is fragmented, that evaluation's first touches can take
/// longer.
///
/// ```swift
/// let block = HugePages.allocate(byteCount: 40 << 20, alignment: 8)  // 40 MiB, advised
/// defer { block.deallocate() }
/// HugePages.interior(of: 0x20_0010..<0x420_0010)  // 0x40_0000..<0x420_0000
/// ```
enum HugePages {
  /// The smallest block mapped by the library and advised huge pages: glibc's largest
  /// threshold for mapping a block on its own.
  static let threshold = 32 << 20

  /// The size of a huge page on x86-64 and arm64 Linux.
  static let size = 2 << 20

  /// A block of memory of at least `byteCount` bytes, aligned to `alignment`: from
  /// ``threshold`` on, under Linux, mapped on its own, aligned to huge pages and advised them
  /// (when mapping fails, from the allocator); else from the allocator.
  ///
  /// Mapped by the library rather than left to glibc, a large block is fresh memory every time,
  /// whatever the heap's state: glibc served it from the heap when a freed region there was
  /// large enough, then gave the heap's top back to the system after the evaluation, and the
  /// next evaluation paid 11 000 page faults of 4 KiB (10⁶ shuffled entries: 69 ms instead of
  /// 48, in a benchmark run after smaller histories). Aligned, it has no 4 KiB page at its ends
  /// (glibc's own mapping left about 900 there).
  static func allocate(byteCount: Int, alignment: Int) -> Block {
    #if canImport(Glibc)
      if byteCount >= threshold, alignment <= size {
        let length = (byteCount + size - 1) & ~(size - 1)
        // One huge page more than needed, then the ends cut to align the block.
        if let mapped = mmap(
          nil, length + size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
          mapped != UnsafeMutableRawPointer(bitPattern: -1)
        {
          let first = Int(bitPattern: mapped)
          // Always whole pages: the mapping is one huge page longer than it needs.
          if let whole = interior(of: first..<first + length + size) {
            let head = whole.lowerBound - first
            let base = mapped + head
            if head > 0 { munmap(mapped, head) }
            munmap(base + length, size - head)
            // Only advice: refused (no transparent huge pages), the block works as it is.
            _ = madvise(base, length, MADV_HUGEPAGE)
            return Block(base: base, mappedLength: length)
          }
          munmap(mapped, length + size)
        }
      }
    #endif
    return Block(
      base: .allocate(byteCount: byteCount, alignment: alignment), mappedLength: 0)
  }

  /// Memory from ``allocate(byteCount:alignment:)``.
  struct Block {
    /// The first byte.
    let base: UnsafeMutableRawPointer
    /// How many bytes were mapped; 0 when the block is from the allocator.
    let mappedLength: Int

    /// Gives the memory back.
    func deallocate() {
      #if canImport(Glibc)
        if mappedLength > 0 {
          munmap(base, mappedLength)
          return
        }
      #endif
      base.deallocate()
    }
  }

  /// The addresses of `block` that whole huge pages cover; `nil` when none does.
  static func interior(of block: Range<Int>) -> Range<Int>? {
    let start = (block.lowerBound + size - 1) & ~(size - 1)
    let end = block.upperBound & ~(size - 1)
    return start < end ? start..<end : nil
  }
}
