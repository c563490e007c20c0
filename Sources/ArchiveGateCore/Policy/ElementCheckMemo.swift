/// Which collections' elements (and dictionary keys) the policy walk already checked, and against
/// which constraints (expectation-set indices, -1 for none): a collection shared by many sites is
/// checked once per distinct constraint, not once per site.
///
/// Per UID a flat table holds the first constraint pair checked, packed in one nonzero word (0 =
/// none; allocated on the first collection); a collection met again under a different pair, or
/// under indices too large to pack, goes to a set.
struct ElementCheckMemo {
    private var firstChecked: [UInt32] = []
    private var otherChecked = Set<Check>()

    private struct Check: Hashable {
        var uid: Int
        var elements: Int
        var keys: Int

        /// Both indices in one nonzero 32-bit word, or nil when an index is past 2^15 - 2 (a
        /// policy with that many distinct sets is not seen).
        var packed: UInt32? {
            guard (-1 ..< (1 << 15) - 1).contains(elements), (-1 ..< (1 << 15) - 1).contains(keys) else { return nil }
            return 1 << 31 | UInt32(elements + 1) << 15 | UInt32(keys + 1)
        }
    }

    /// Records that `uid`'s elements are checked against `elements` and its keys against `keys`;
    /// false when they already were.
    mutating func insert(uid: Int, elements: Int, keys: Int, objectCount: Int) -> Bool {
        if firstChecked.isEmpty { firstChecked = Array(repeating: 0, count: objectCount) }
        let check = Check(uid: uid, elements: elements, keys: keys)
        guard let packed = check.packed else { return otherChecked.insert(check).inserted }
        switch firstChecked[uid] {
        case 0:
            firstChecked[uid] = packed
            return true
        case packed:
            return false
        default:
            return otherChecked.insert(check).inserted
        }
    }
}
