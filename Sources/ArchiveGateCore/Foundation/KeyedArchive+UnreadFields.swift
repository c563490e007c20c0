/// The fields of a Foundation object that its class's definition does not read
/// (`FoundationShape.keepsField`). Foundation's decoder ignores them, so they are not part of the
/// decoded graph and no check looks at them; they are still shown, so nothing the archive holds
/// vanishes silently: plain JSON writes them under `"$unread"` (README "JSON conventions",
/// docs/FOUNDATION-LAYOUTS.md "Nothing dropped silently"), typed mode keeps them like every field,
/// and sanitize, which writes only what Foundation decodes, leaves them out.
extension KeyedArchive {
    /// The dictionary pair positions of object `uid`'s fields that `shape` does not read, in
    /// archive order (`$class` is not a field).
    public func unreadFieldPairs(of uid: Int, shape: FoundationShape) -> [Int] {
        let index = plistIndex(of: uid)
        guard plist.kind(of: index) == .dictionary else { return [] }
        // An NSValue without NS.special is decoded from the ObjC type and bytes under `$0`, `$1` ….
        let objCTyped = shape == .value && plist.dictionaryPairIndex(index, forKey: "NS.special") == nil
        var pairs: [Int] = []
        for pair in 0 ..< plist.count(of: index) where !isClassPair(uid, pair: pair) {
            let key = plist.string(at: plist.dictionaryKey(index, pair: pair)) ?? ""
            if !shape.keepsField(key, objCTypedValue: objCTyped), !Self.shownInAnotherForm(key, shape: shape) { pairs.append(pair) }
        }
        return pairs
    }

    /// Keys Foundation itself writes on every such object that ArchiveGate does not check (so
    /// sanitize does not keep them) but whose information the natural form already shows
    /// (`Definition.shownInAnotherForm`): NSDecimalNumber's `NS.compact` flag and `NS.mantissa.bo`
    /// byte order (the decimal text is the value), a unit dimension's `NS.specifier`, Apple's
    /// number for the unit (the symbol names the unit).
    static func shownInAnotherForm(_ key: String, shape: FoundationShape) -> Bool {
        FoundationShape.definitionsByOrdinal[shape.ordinal].shownInAnotherForm.contains(key)
    }
}
