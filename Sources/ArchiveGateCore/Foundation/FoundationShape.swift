/// The Foundation classes whose keyed encoding ArchiveGate understands. The enum itself, its case
/// list beside each case's definition, is in `FoundationShape+Definitions.swift`.
extension FoundationShape {
    /// The shape of the Foundation class with exactly this `$classname`, if any.
    public init?(className: String) {
        guard let shape = Self.byClassName[className] else { return nil }
        self = shape
    }

    /// Every `$classname` with a known shape, from the definitions table.
    public static let byClassName: [String: FoundationShape] = Dictionary(
        uniqueKeysWithValues: allCases.flatMap { shape in shape.definition.classNames.map { ($0, shape) } })

    /// A dense index for per-shape tables: the case's position in the declaration (and in
    /// `allCases`), which the compiler numbers as the raw value, so a new case needs no row here and
    /// reading it costs what a switch jump costs.
    @inline(__always)
    public var ordinal: Int { rawValue }

    /// The shape with this `ordinal`.
    static let byOrdinal: [FoundationShape] = allCases

    /// True for the shapes that render as JSON arrays of their `NS.objects`.
    public var isCollection: Bool {
        if case .array = jsonForm { return true }
        return false
    }

    /// True for the shapes that render as a dictionary (NSDictionary, NSMapTable).
    public var isDictionary: Bool {
        if case .dictionary = jsonForm { return true }
        return false
    }

    /// NSHashTable, NSMapTable, NSPointerArray: members under `$1`, `$2` … (`KeyedArchive+PointerCollections`).
    public var isPointerCollection: Bool {
        self == .hashTable || self == .mapTable || self == .pointerArray
    }
}
