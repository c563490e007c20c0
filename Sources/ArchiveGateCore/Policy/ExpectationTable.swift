/// Interns the class sets one walk uses and caches, per set and archive class, whether the class is
/// accepted — so checking a reference site is an array lookup instead of hashing class-name strings.
struct ExpectationTable {
    /// A registered expectation: indices into `sets`.
    struct Entry {
        var accepted: Int
        var elements: Int?
        var keys: Int?
        /// Foundation's own expectation inside one of its classes (reported as such).
        var isInternal: Bool
    }

    /// The policy's `allow` set is always set 0.
    static let allowedSet = 0

    private(set) var sets: [ClassSet]
    private(set) var entries: [Entry] = []
    private var acceptance: [[Int8]]
    /// Per set: its `inlineKinds` as bits (`acceptsInline`).
    private var inlineKindBits: [UInt8]
    private let classNames: [String]
    /// The registered entry of each Foundation reference field (`internalSlotBase[ordinal] + field`),
    /// -1 until first used: a flat table, because the walk asks once per Foundation reference.
    private var internalEntries: [Int32] = []
    /// Where each shape's reference fields start in `internalEntries`; the last element is the total.
    private static let internalSlotBase: [Int] = FoundationShape.referenceFieldsByOrdinal.reduce(into: [0]) { bases, fields in
        bases.append(bases[bases.count - 1] + fields.count)
    }

    init(allowed: ClassSet, classes: [ArchiveClass]) {
        classNames = classes.map(\.name)
        sets = [allowed]
        inlineKindBits = [allowed.inlineKinds.reduce(0) { $0 | Self.bit($1) }]
        acceptance = [Array(repeating: -1, count: classes.count)]
    }

    mutating func register(_ set: ClassSet) -> Int {
        sets.append(set)
        inlineKindBits.append(set.inlineKinds.reduce(0) { $0 | Self.bit($1) })
        acceptance.append(Array(repeating: -1, count: classNames.count))
        return sets.count - 1
    }

    mutating func register(_ expectation: Expectation, isInternal: Bool = false) -> Int32 {
        let entry = Entry(accepted: register(expectation.accepted), elements: expectation.elements.map { register($0) },
                          keys: expectation.dictionaryKeys.map { register($0) }, isInternal: isInternal)
        entries.append(entry)
        return Int32(entries.count - 1)
    }

    /// The entry for field `field` of a Foundation shape, registered on first use.
    mutating func internalEntry(_ shape: FoundationShape, field: Int) -> Int32 {
        if internalEntries.isEmpty { internalEntries = Array(repeating: -1, count: Self.internalSlotBase[Self.internalSlotBase.count - 1]) }
        let slot = Self.internalSlotBase[shape.ordinal] + field
        let known = internalEntries[slot]
        if known >= 0 { return known }
        let entry = register(Expectation(accepted: ClassSet(names: FoundationShape.referenceFieldsByOrdinal[shape.ordinal][field].accepts)), isInternal: true)
        internalEntries[slot] = entry
        return entry
    }

    /// Whether set `set` accepts inline scalars of kind `kind`: a bit test, where the set's
    /// `inlineKinds.contains` hashed (and copying the set out of `sets` retained its storage).
    func acceptsInline(set: Int, _ kind: InlineKind) -> Bool {
        inlineKindBits[set] & Self.bit(kind) != 0
    }

    private static func bit(_ kind: InlineKind) -> UInt8 {
        switch kind {
        case .integer: 1
        case .real: 2
        case .bool: 4
        case .string: 8
        case .data: 16
        }
    }

    /// Whether set `set` accepts archive class `classIndex`.
    @inline(__always)
    mutating func accepts(set: Int, classIndex: Int) -> Bool {
        let cached = acceptance[set][classIndex]
        if cached >= 0 { return cached == 1 }
        let result = sets[set].accepts(className: classNames[classIndex])
        acceptance[set][classIndex] = result ? 1 : 0
        return result
    }
}
