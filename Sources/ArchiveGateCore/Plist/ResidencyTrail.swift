/// Gives a mapped input's pages back behind a pass that reads it from front to back (issue 32:
/// peak RSS), so that a pass over a 50 MB archive holds a few MiB of it rather than all of it.
///
/// A hint only (`ByteStorage.discardResidentPages`): a page touched again after it was given back
/// is read from the page cache once more, so a file whose objects are out of order still decodes
/// the same, at the cost of some page faults. Each call gives back only what lies between the
/// previous release and the furthest position reached, so every page is given back at most once
/// per pass, whatever the order of the reads. Does nothing for array storage.
struct ResidencyTrail {
    /// Pages are given back in steps of this many bytes: one `madvise` per step.
    static let step = 4 << 20
    /// Kept resident below the furthest position reached: the page that holds it (and the object
    /// that crosses into it), whatever the page size up to 64 KiB.
    static let margin = 64 << 10

    private let bytes: ByteStorage
    private let start: Int
    private let end: Int
    private var released: Int
    private var reached: Int

    /// A trail over `range` of `bytes`.
    init(_ bytes: ByteStorage, over range: Range<Int>) {
        self.bytes = bytes
        start = range.lowerBound
        end = range.upperBound
        released = range.lowerBound
        reached = range.lowerBound
    }

    /// Notes that the pass has read everything it will read below `position`.
    @inline(__always)
    mutating func pass(_ position: Int) {
        guard position > reached else { return }
        reached = position
        if reached - released >= Self.step { release(upTo: reached - Self.margin) }
    }

    /// Gives back everything of the range not yet given back: the pass is over.
    mutating func finish() { release(upTo: end) }

    @inline(never)
    private mutating func release(upTo upper: Int) {
        let upper = min(upper, end)
        guard upper > released else { return }
        // From a margin below the previous release: its last page was kept whole (only pages
        // wholly inside a range are given back), and now lies wholly inside this one.
        bytes.discardResidentPages(max(start, released - Self.margin) ..< upper)
        released = upper
    }
}
