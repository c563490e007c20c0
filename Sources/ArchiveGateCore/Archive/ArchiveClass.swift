/// A class as the archive names it. Only `name` ever matters for decisions; `claimedChain` is what
/// the file says the superclasses are, which is attacker-controlled and only ever reported.
public struct ArchiveClass: Hashable, Sendable {
    /// `$classname`, or `NSString`/`NSNumber`/`NSData`/`NSDate` for inline scalars.
    public let name: String
    /// `$classes` as written in the file (empty for inline scalars).
    public let claimedChain: [String]
    /// True for the pseudo-classes of inline scalars in `$objects`.
    public let isInline: Bool
    /// What the layer that knows classes by name (Foundation/: `ArchiveClass.shape`) made of
    /// `name`, worked out once per class when the archive is read, so that the walk does not hash
    /// the name once per object. Archive/ stores it and never reads it.
    public let tag: ClassTag

    public init(name: String, claimedChain: [String], isInline: Bool, tag: ClassTag) {
        self.name = name
        self.claimedChain = claimedChain
        self.isInline = isInline
        self.tag = tag
    }
}

/// An opaque per-class code that a layer above Archive/ computes from a class name
/// (`KeyedArchive.init(plist:maxObjects:classTag:)`); `.none` for inline pseudo-classes.
public struct ClassTag: Hashable, Sendable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Nothing known about the class.
    public static let none = ClassTag(rawValue: 0)
}
