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
        for element in elements where plist.kind(of: Int(element)) != .uid { return nil }
        return elements
    }

    /// The text of a string object: an inline string, or an `NSString`/`NSMutableString` instance
    /// whose `NS.string` (or UTF-8 `NS.bytes`) is inline or referenced.
    public func stringValue(ofObject uid: Int) -> String? {
        guard uid != 0, let classIndex = classIndex(of: uid) else { return nil }
        let archiveClass = classes[classIndex]
        if archiveClass.isInline { return plist.string(at: plistIndex(of: uid)) }
        guard archiveClass.shape == .string else { return nil }
        if let text = scalarField(uid, "NS.string") { return plist.string(at: text) }
        if let bytes = scalarField(uid, "NS.bytes"), let data = plist.data(at: bytes) {
            return String(validating: data, as: UTF8.self)
        }
        return nil
    }

    /// Whether `stringValue(ofObject:)` is non-nil, without building the string (the shape checks
    /// ask this of every NSURL, NSString … they meet).
    func hasStringValue(ofObject uid: Int) -> Bool {
        guard uid != 0, let classIndex = classIndex(of: uid) else { return false }
        if classes[classIndex].isInline { return plist[plistIndex(of: uid)].isString }
        guard classes[classIndex].shape == .string else { return false }
        if let text = scalarField(uid, "NS.string") { return plist[text].isString }
        if let bytes = scalarField(uid, "NS.bytes"), let data = plist.data(at: bytes) {
            return String(validating: data, as: UTF8.self) != nil
        }
        return false
    }

    /// Whether object `uid` is a string of any encoding (inline or an NSString instance).
    public func isStringObject(_ uid: Int) -> Bool {
        guard uid != 0, let classIndex = classIndex(of: uid) else { return false }
        let archiveClass = classes[classIndex]
        if archiveClass.isInline { return plist[plistIndex(of: uid)].isString }
        return archiveClass.shape == .string
    }

    /// The user-facing key of field pair `pair` of instance `uid`: the archive escapes user keys
    /// that start with `$` by doubling it; this undoes that.
    public func userKey(_ uid: Int, pair: Int) -> String {
        let key = plist.string(at: plist.dictionaryKey(plistIndex(of: uid), pair: pair)) ?? ""
        return key.hasPrefix("$$") ? String(key.dropFirst()) : key
    }

    /// Whether field pair `pair` of instance `uid` is the `$class` reference.
    @inlinable
    public func isClassPair(_ uid: Int, pair: Int) -> Bool {
        plist.stringEquals(plist.dictionaryKey(plistIndex(of: uid), pair: pair), "$class")
    }
}
