/// The Foundation layer's reading of a class name, stored in `ArchiveClass.tag` when the archive is
/// read: the class's shape (its ordinal + 1 in the low byte, 0 for none) and whether it is a class
/// Foundation only ever archives inline (bit 8).
extension ArchiveClass {
    /// How Foundation encodes this class, when ArchiveGate knows it.
    @inline(__always)
    public var shape: FoundationShape? {
        let ordinal = Int(tag.rawValue & 0xFF)
        return ordinal == 0 ? nil : FoundationShape.byOrdinal[ordinal - 1]
    }

    /// True for an instance dictionary of a class Foundation only ever archives inline (NSNumber).
    var isInlineOnlyInstance: Bool { tag.rawValue & 0x100 != 0 }

    /// A class as named in an archive, with the Foundation layer's tag.
    public init(name: String, claimedChain: [String], isInline: Bool) {
        self.init(name: name, claimedChain: claimedChain, isInline: isInline, tag: isInline ? .none : Self.foundationTag(name))
    }

    /// The tag of an instance class named `name`.
    static func foundationTag(_ name: String) -> ClassTag {
        let ordinal = FoundationShape(className: name).map { UInt16($0.ordinal + 1) } ?? 0
        let inlineOnly: UInt16 = FoundationShape.inlineOnlyClassNames.contains(name) ? 0x100 : 0
        return ClassTag(rawValue: ordinal | inlineOnly)
    }
}

extension KeyedArchive {
    /// Validates the keyed-archive structure of `plist`, tagging each class with its Foundation shape.
    public init(plist: PropertyList, maxObjects: Int = .max) throws(ArchiveError) {
        try self.init(plist: plist, maxObjects: maxObjects, classTag: ArchiveClass.foundationTag)
    }
}
