/// The rules every dictionary obeys, whatever format it came from: keys are strings, and no key
/// appears twice (compared by Unicode code units, so an ASCII and a UTF-16 spelling are the same key).
enum DictionaryKeyRules {
    struct Problem {
        var code: PropertyListError.Code
        var message: String
    }

    /// Checks dictionary `index` of `plist`; returns the first problem, if any.
    static func check(_ plist: PropertyList, dictionary index: Int) -> Problem? {
        let pairs = plist.count(of: index)
        // Small dictionaries (nearly all archive objects) compare pairwise without hashing.
        if pairs <= 12 {
            let start = plist.referencesStart(of: index)
            for pair in 0 ..< pairs {
                let key = Int(plist.references[start + 2 * pair])
                if let duplicate = hasEarlierDuplicate(plist, of: key, pair: pair, referencesStart: start) {
                    if duplicate { return Problem(code: .duplicateKey, message: "dictionary key '\(plist.string(at: key) ?? "")' appears twice") }
                    continue
                }
                guard plist.objects[key].isString else {
                    return Problem(code: .nonStringKey, message: "dictionary key #\(pair) is a \(plist.kind(of: key)), not a string")
                }
                for earlier in 0 ..< pair where keysEqual(plist, Int(plist.references[start + 2 * earlier]), key) {
                    return Problem(code: .duplicateKey, message: "dictionary key '\(plist.string(at: key) ?? "")' appears twice")
                }
            }
            return nil
        }
        var seen = Set<[UInt16]>()
        seen.reserveCapacity(pairs)
        for pair in 0 ..< pairs {
            let key = plist.dictionaryKey(index, pair: pair)
            guard plist.objects[key].isString, let text = plist.string(at: key) else {
                return Problem(code: .nonStringKey, message: "dictionary key #\(pair) is a \(plist.kind(of: key)), not a string")
            }
            guard seen.insert(Array(text.utf16)).inserted else {
                return Problem(code: .duplicateKey, message: "dictionary key '\(text)' appears twice")
            }
        }
        return nil
    }

    /// The pairwise check of a packed ASCII/UTF-8 key `key` (pair `pair`) against the earlier
    /// keys, read from tag bytes and payload words: whether one of them is the same key, or nil when
    /// `key` is not such a string (the general path below decides).
    /// Keys of different lengths differ without a byte compare, and one object used twice is a
    /// duplicate without one.
    @inline(__always)
    private static func hasEarlierDuplicate(_ plist: PropertyList, of key: Int, pair: Int, referencesStart start: Int) -> Bool? {
        guard let (keyStart, keyLength) = plist.objects.packedByteString(at: key) else { return nil }
        for earlier in 0 ..< pair {
            let other = Int(plist.references[start + 2 * earlier])
            if other == key { return true }
            if let (otherStart, otherLength) = plist.objects.packedByteString(at: other) {
                if otherLength == keyLength, plist.bytesEqual(at: keyStart, otherStart, count: keyLength) { return true }
            } else if keysEqual(plist, other, key) {
                return true
            }
        }
        return false
    }

    private static func keysEqual(_ plist: PropertyList, _ lhs: Int, _ rhs: Int) -> Bool {
        if lhs == rhs { return true }
        let left = plist.objects[lhs]
        let right = plist.objects[rhs]
        if left.kind != .utf16String, right.kind != .utf16String {
            guard left.second == right.second else { return false }
            let leftStart = Int(left.first)
            let rightStart = Int(right.first)
            if left.second == 0 { return true }
            return plist.bytes.withUnsafeBufferPointer { buffer in
                memoryEquals(buffer.baseAddress! + leftStart, buffer.baseAddress! + rightStart, Int(left.second))
            }
        }
        // Exact code units, as the hashed path compares: `String ==` would merge canonically
        // equivalent spellings that CoreFoundation treats as different keys.
        return plist.string(at: lhs).map { Array($0.utf16) } == plist.string(at: rhs).map { Array($0.utf16) }
    }
}
