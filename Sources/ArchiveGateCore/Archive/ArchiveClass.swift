/// A class as the archive names it. Only `name` ever matters for decisions; `claimedChain` is what
/// the file says the superclasses are, which is attacker-controlled and only ever reported.
public struct ArchiveClass: Hashable, Sendable {
    /// `$classname`, or `NSString`/`NSNumber`/`NSData`/`NSDate` for inline scalars.
    public let name: String
    /// `$classes` as written in the file (empty for inline scalars).
    public let claimedChain: [String]
    /// True for the pseudo-classes of inline scalars in `$objects`.
    public let isInline: Bool
    /// How Foundation encodes this class, when ArchiveGate knows it.
    public let shape: FoundationShape?
    /// True for an instance dictionary of a class Foundation only ever archives inline (NSNumber):
    /// worked out once per class, so the walk does not hash the name once per object.
    let isInlineOnlyInstance: Bool

    public init(name: String, claimedChain: [String], isInline: Bool) {
        self.name = name
        self.claimedChain = claimedChain
        self.isInline = isInline
        self.shape = isInline ? nil : FoundationShape(className: name)
        self.isInlineOnlyInstance = !isInline && FoundationShape.inlineOnlyClassNames.contains(name)
    }
}
