extension KeyedArchive {
    /// `Class.key` for every field of a Foundation object (an instance of a class with a shape)
    /// that its shape does not decode (`FoundationShape.keepsField`). An archive sanitize wrote has
    /// none: its tests and FuzzWrite check exactly that.
    public func fieldsOutsideTheirShapes() -> [String] {
        var found = [String]()
        for uid in 1 ..< objectCount {
            guard let archiveClass = archiveClass(of: uid), !archiveClass.isInline, let shape = archiveClass.shape else { continue }
            let index = plistIndex(of: uid)
            guard plist.kind(of: index) == .dictionary else { continue }
            let objCTyped = shape == .value && plist.dictionaryPairIndex(index, forKey: "NS.special") == nil
            for pair in 0 ..< plist.count(of: index) where !isClassPair(uid, pair: pair) {
                let key = plist.string(at: plist.dictionaryKey(index, pair: pair)) ?? ""
                if !shape.keepsField(key, objCTypedValue: objCTyped) { found.append("\(archiveClass.name).\(key)") }
            }
        }
        return found
    }
}
