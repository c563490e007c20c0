extension KeyedArchive {
    /// `Class.key` for every field of a Foundation object (an instance of a class with a shape)
    /// that its shape does not decode (`FoundationShape.keepsField`). An archive sanitize wrote has
    /// none: its tests and FuzzWrite check exactly that.
    public func fieldsOutsideTheirShapes() -> [String] {
        var found = [String]()
        for uid in 1 ..< objectCount {
            guard let archiveClass = archiveClass(of: uid), !archiveClass.isInline, let shape = archiveClass.shape else { continue }
            let index = plistIndex(of: uid)
            for pair in unreadFieldPairs(of: uid, shape: shape) {
                found.append("\(archiveClass.name).\(plist.string(at: plist.dictionaryKey(index, pair: pair)) ?? "")")
            }
        }
        return found
    }
}
