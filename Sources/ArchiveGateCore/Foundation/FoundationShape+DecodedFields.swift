/// The fields of a Foundation object that sanitize writes back: the ones Foundation's own
/// `initWithCoder:` reads for the shape and ArchiveGate checks before admitting the object. A key
/// outside them is bytes no check has looked at (an attacker's
/// extra `NS.foo` on an NSDate, NSDecimalNumber's unchecked `NS.mantissa.bo` byte order), so the
/// archive ArchiveGate writes leaves it out.
extension FoundationShape {
    /// Whether sanitize keeps field `key` of an object of this shape. `objCTypedValue`: the object
    /// is an NSValue without `NS.special`, which Foundation decodes from the ObjC type and bytes the
    /// archiver wrote under `$0`, `$1` … (and the plain JSON shows field by field).
    public func keepsField(_ key: String, objCTypedValue: Bool = false) -> Bool {
        if self == .value, objCTypedValue { return Self.isSequentialKey(key) }
        if Self.decodedKeysByOrdinal[ordinal].contains(key) { return true }
        if isPointerCollection { return key == "NS.count" || KeyedArchive.sequentialPosition(key) != nil }
        // corelibs writes an ordered set's members as NS.object.0, NS.object.1 … (the collection
        // check reads them as consecutive references).
        return self == .orderedSet && key.hasPrefix("NS.object.") && UInt(key.dropFirst("NS.object.".count)) != nil
    }

    /// The table's fields and the keys its class's own rules read (`Definition.ruleKeys`).
    private static let decodedKeysByOrdinal: [Set<String>] = definitionsByOrdinal.map { definition in
        Set(definition.fields.map(\.key.description) + definition.ruleKeys)
    }

    /// `$0`, `$1` …: the keys NSKeyedArchiver gives values encoded without a key.
    private static func isSequentialKey(_ key: String) -> Bool {
        key.count > 1 && key.hasPrefix("$") && key.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }
}
