/// NSString instances read as text, the same way for the shape checks, the policy walk and the renderers.
extension KeyedArchive {
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
        // The class record is not copied out: a copy retains its name and claimed chain (every
        // key of every dictionary is asked about).
        if classes[classIndex].isInline { return plist[plistIndex(of: uid)].isString }
        return classes[classIndex].shape == .string
    }
}
