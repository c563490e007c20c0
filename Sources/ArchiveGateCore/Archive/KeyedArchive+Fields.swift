/// Field access on instances, shared by the policy walk and the renderers so that both read an
/// object the same way.
extension KeyedArchive {
    /// The plist index of instance `uid`'s value for archive key `key`, or nil.
    @inlinable
    public func field(_ uid: Int, _ key: StaticString) -> Int? {
        plist.dictionaryValue(plistIndex(of: uid), forKey: key)
    }

    /// The UID a field value refers to, when it is a UID.
    @inlinable
    public func referencedUID(_ valueIndex: Int) -> Int? { plist.uid(at: valueIndex) }

    /// A field that is either an inline scalar or a UID of an inline scalar object (corelibs writes
    /// some NSValue fields by reference where Apple writes them inline): the plist index of the scalar.
    public func scalarField(_ uid: Int, _ key: StaticString) -> Int? {
        guard let value = field(uid, key) else { return nil }
        if let target = referencedUID(value) {
            guard target != 0, let classIndex = classIndex(of: target), classes[classIndex].isInline else { return nil }
            return plistIndex(of: target)
        }
        return plist[value].isContainer ? nil : value
    }

    /// A field Foundation reads with `decodeInteger`/`decodeInt64`, which take the value in place
    /// (a UID is no number to them): its value when an inline integer that fits 64 bits, else nil.
    public func inlineInteger(_ uid: Int, _ key: StaticString) -> Int64? {
        guard let value = field(uid, key), plist.kind(of: value) == .integer else { return nil }
        return plist.int64(at: value)
    }

    /// The UIDs listed in an array-valued field (`NS.objects`, `NS.keys`), or nil when the field is
    /// missing or not an array of UIDs.
    public func uidArray(_ uid: Int, _ key: StaticString) -> ArraySlice<UInt32>? {
        guard let value = field(uid, key), plist.kind(of: value) == .array else { return nil }
        let elements = plist.children(of: value)
        // Classification read every element of every instance's array field once.
        if storage.uidArrays.contains(value) { return elements }
        for element in elements where plist.kind(of: Int(element)) != .uid { return nil }
        return elements
    }

    /// The user-facing key of field pair `pair` of instance `uid`: the archive escapes user keys
    /// that start with `$` by doubling it; this undoes that.
    public func userKey(_ uid: Int, pair: Int) -> String {
        let key = plist.string(at: plist.dictionaryKey(plistIndex(of: uid), pair: pair)) ?? ""
        return key.hasPrefix("$$") ? String(key.dropFirst()) : key
    }

    /// Whether field pair `pair` of instance `uid` is the `$class` reference: read from where
    /// classification found it (one byte per UID), else from the key's text.
    @inlinable
    public func isClassPair(_ uid: Int, pair: Int) -> Bool {
        let known = storage.classPairs[uid]
        if known != Self.unknownClassPair { return Int(known) == pair }
        return plist.stringEquals(plist.dictionaryKey(plistIndex(of: uid), pair: pair), "$class")
    }
}
