/// Foundation compares NSString keys (`decodeObjectForKey:`, dictionary keys) by UTF-16 code
/// units, not by canonical equivalence as Swift's `String ==` does: `café` (U+00E9) and
/// `cafe\u{301}` are two different keys to an app, so a schema naming one is not satisfied by the
/// other. Every comparison of a schema key with an archive key goes through here.
enum FoundationKey {
    /// Whether `left` and `right` are the same NSString key (same UTF-16 code units). Compared as
    /// UTF-8: a Swift string is valid Unicode, so both encodings spell the same scalars, and equal
    /// UTF-8 is equal UTF-16 — without transcoding each unit (`String.UTF16View` iteration).
    static func equal(_ left: String, _ right: String) -> Bool {
        left.utf8.count == right.utf8.count && left.utf8.elementsEqual(right.utf8)
    }
}

extension Policy.ClassSchema {
    /// The expectation the schema declares for user key `key`, compared by UTF-16 code units (the
    /// `keys` dictionary itself hashes canonically equivalent spellings together).
    func declaredExpectation(forKey key: String) -> Expectation? {
        guard let found = keys[key] else { return nil }
        if keys.index(forKey: key).map({ FoundationKey.equal(keys[$0].key, key) }) == true { return found }
        return keys.first { FoundationKey.equal($0.key, key) }?.value
    }
}
