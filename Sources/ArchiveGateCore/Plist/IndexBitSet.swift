/// A set of object indices below a fixed count, one bit each: the walkers' "already seen" marks
/// without hashing or a per-insert allocation (one allocation, on the first insert).
struct IndexBitSet: Sendable {
    private var words: [UInt64] = []
    let count: Int

    /// An empty set for indices `0 ..< count`.
    init(count: Int) {
        self.count = count
    }

    /// Whether `index` (in `0 ..< count`) is in the set.
    @inline(__always)
    func contains(_ index: Int) -> Bool {
        guard !words.isEmpty else { return false }
        return words[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    /// Adds `index` (in `0 ..< count`); true when it was not in the set yet.
    @inline(__always)
    mutating func insert(_ index: Int) -> Bool {
        precondition(index >= 0 && index < count, "IndexBitSet index out of range")
        if words.isEmpty { words = Array(repeating: 0, count: (count + 63) >> 6) }
        let bit: UInt64 = 1 << UInt64(index & 63)
        let word = words[index >> 6]
        guard word & bit == 0 else { return false }
        words[index >> 6] = word | bit
        return true
    }
}
