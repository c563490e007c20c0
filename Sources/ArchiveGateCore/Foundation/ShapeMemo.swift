/// The Foundation shape each object is read as (`KeyedArchive.shape(of:layouts:)`), worked out at
/// most once per object and shared by the policy walk and the renderers (the walk hands its memo
/// to the renderer). Also the last collection and dictionary layouts read: the shape of a
/// collection is whether its layout reads, and the walk's site check and expansion, and the
/// renderer's container, ask for the same layout right after.
struct ShapeMemo {
    /// What the memo knows of one object's shape.
    enum Entry: Equatable {
        /// Not worked out yet.
        case unknown
        /// Worked out: the shape, or nil when the object is read as `{"$class": …}`.
        case known(FoundationShape?)
    }

    /// Per UID: `unknownCode` not yet worked out, `noShapeCode` no shape, else the shape's ordinal.
    private var codes: [Int8]
    private static let unknownCode: Int8 = -2
    private static let noShapeCode: Int8 = -1
    /// `FoundationShape.byOrdinal`, held here: a static table is reached through a `swift_once`
    /// check at every access, and the walk asks for a shape at nearly every edge.
    private let shapesByOrdinal = FoundationShape.byOrdinal
    /// The layouts last read, reused while the same object is asked about.
    var layouts = LayoutMemo()

    init(objectCount: Int) {
        codes = Array(repeating: Self.unknownCode, count: objectCount)
    }

    /// What is known of `uid`'s shape, without working it out.
    func entry(_ uid: Int) -> Entry {
        let code = codes[uid]
        if code >= 0 { return .known(shapesByOrdinal[Int(code)]) }
        return code == Self.noShapeCode ? .known(nil) : .unknown
    }

    /// The shape of `uid`, worked out on first use.
    mutating func shape(of uid: Int, in archive: KeyedArchive) throws(ArchiveError) -> FoundationShape? {
        let code = codes[uid]
        if code >= 0 { return shapesByOrdinal[Int(code)] }
        if code == Self.noShapeCode { return nil }
        let shape = try archive.shape(of: uid, layouts: &layouts)
        codes[uid] = shape.map { Int8($0.ordinal) } ?? Self.noShapeCode
        return shape
    }

    /// The cycle rule: a reference back to an object still open closes a cycle through `members`.
    /// Cycles through custom objects are how NSCoding graphs link parents and children (they
    /// render as `$ref`); a cycle of Foundation value objects alone (collections, dictionaries,
    /// attributed strings, errors …) cannot be decoded by anyone — each must be decoded before the
    /// one that holds it. True for such a cycle, which the walk and the renderers refuse.
    mutating func isValueOnlyCycle(_ members: some Sequence<Int>, in archive: KeyedArchive) throws(ArchiveError) -> Bool {
        for uid in members where try shape(of: uid, in: archive) == nil { return false }
        return true
    }
}

/// A dictionary's keys and values, and whether every key is a string object (the plain JSON is
/// then an object keyed by them, else an array of `{"key":…,"value":…}`).
struct DictionaryLayout {
    var uid: Int
    var keys: CollectionLayout
    var values: CollectionLayout
    var stringKeys: Bool
}

/// The last answers of `KeyedArchive.collectionLayout` and `dictionaryLayout`, each for one UID:
/// asking again for that UID costs nothing, asking for another replaces it.
struct LayoutMemo {
    private var lastCollection: (uid: Int, layout: CollectionLayout)?
    private var lastDictionary: DictionaryLayout?

    /// `KeyedArchive.collectionLayout(uid)`.
    mutating func collection(_ uid: Int, in archive: KeyedArchive) -> CollectionLayout? {
        if let last = lastCollection, last.uid == uid { return last.layout }
        guard let layout = archive.collectionLayout(uid) else { return nil }
        lastCollection = (uid, layout)
        return layout
    }

    /// `KeyedArchive.dictionaryLayout(uid)` with whether its keys are all strings.
    mutating func dictionary(_ uid: Int, in archive: KeyedArchive) -> DictionaryLayout? {
        if let last = lastDictionary, last.uid == uid { return last }
        guard let (keys, values) = archive.dictionaryLayout(uid) else { return nil }
        var stringKeys = true
        for position in 0 ..< keys.count where !archive.isStringObject(keys.target(at: position, in: archive)) {
            stringKeys = false
            break
        }
        let layout = DictionaryLayout(uid: uid, keys: keys, values: values, stringKeys: stringKeys)
        lastDictionary = layout
        return layout
    }
}
