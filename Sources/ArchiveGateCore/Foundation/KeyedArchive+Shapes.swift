/// Decides how a Foundation object is read, the same way for the policy walk and the renderers.
extension KeyedArchive {
    /// One element of a collection and the site that references it.
    public struct CollectionElement: Hashable, Sendable {
        public let target: Int
        public let site: ReferenceSite
    }

    /// The Foundation shape object `uid` is read as, or nil for custom classes and for Foundation
    /// objects whose fields do not have the shape's encoding (those are shown as `{"$class": …}`,
    /// like any other class, rather than guessed at; `shapeProblems(of:as:)` says what is wrong).
    public func shape(of uid: Int) throws(ArchiveError) -> FoundationShape? {
        var layouts = LayoutMemo()
        return try shape(of: uid, layouts: &layouts)
    }

    /// `shape(of:)`, reading collection and dictionary layouts through `layouts` (`ShapeMemo`).
    func shape(of uid: Int, layouts: inout LayoutMemo) throws(ArchiveError) -> FoundationShape? {
        guard let classIndex = classIndex(of: uid), !classes[classIndex].isInline, let shape = classes[classIndex].shape else { return nil }
        // The class's definition names what must read (`FoundationShape.Definition.reads`).
        guard let reads = FoundationShape.readersByOrdinal[shape.ordinal] else { return shape }
        return reads(self, uid, &layouts) ? shape : nil
    }

    /// The Foundation shape of object `uid`'s class (`ArchiveClass.shape`), without copying the
    /// class record out (its name and claimed chain are retained and released with each copy).
    func classShape(of uid: Int) -> FoundationShape? {
        guard let classIndex = classIndex(of: uid) else { return nil }
        return classes[classIndex].shape
    }

    /// The elements of an NSArray/NSSet/NSOrderedSet: the `NS.objects` array, or the
    /// `NS.object.0`, `NS.object.1`, … fields corelibs writes for ordered sets. Nil when neither.
    public func collectionElements(_ uid: Int) -> [CollectionElement]? {
        guard let layout = collectionLayout(uid) else { return nil }
        return (0 ..< layout.count).map { CollectionElement(target: layout.target(at: $0, in: self), site: layout.site(at: $0, uid: uid)) }
    }

    /// Where a collection's elements are, without copying them: the walks index into it.
    func collectionLayout(_ uid: Int) -> CollectionLayout? {
        if let shape = classShape(of: uid), shape.isPointerCollection {
            guard shape != .mapTable, case .success(let collection) = pointerCollection(uid, as: shape) else { return nil }
            return .numbered(collection.members)
        }
        let index = plistIndex(of: uid)
        if let pair = plist.dictionaryPairIndex(index, forKey: "NS.objects") {
            let value = plist.dictionaryValue(index, pair: pair)
            guard plist.kind(of: value) == .array else { return nil }
            let start = plist.referencesStart(of: value)
            let count = plist.count(of: value)
            for position in start ..< start + count where plist.kind(of: Int(plist.references[position])) != .uid { return nil }
            return .objects(pair: pair, start: start, count: count)
        }
        var numbered = [(position: Int, element: CollectionElement)]()
        for pair in 0 ..< plist.count(of: index) where !isClassPair(uid, pair: pair) {
            guard let key = plist.string(at: plist.dictionaryKey(index, pair: pair)), key.hasPrefix("NS.object."),
                  let position = Int(key.dropFirst("NS.object.".count)), position >= 0,
                  let target = referencedUID(plist.dictionaryValue(index, pair: pair)) else { return nil }
            numbered.append((position, CollectionElement(target: target, site: ReferenceSite(uid: uid, pair: pair))))
        }
        numbered.sort { $0.position < $1.position }
        for (expected, entry) in numbered.enumerated() where entry.position != expected { return nil }
        return .numbered(numbered.map(\.element))
    }

    /// Where a dictionary's keys and values are: NSDictionary's `NS.keys` and `NS.objects` arrays
    /// (of equal length), NSMapTable's alternating `$2`, `$3` … fields. Nil when neither.
    func dictionaryLayout(_ uid: Int) -> (keys: CollectionLayout, values: CollectionLayout)? {
        if classShape(of: uid) == .mapTable {
            guard case .success(let table) = pointerCollection(uid, as: .mapTable) else { return nil }
            return (.numbered(table.members), .numbered(table.values))
        }
        let index = plistIndex(of: uid)
        guard let keyPair = plist.dictionaryPairIndex(index, forKey: "NS.keys"), let keys = uidArray(uid, "NS.keys"),
              let valuePair = plist.dictionaryPairIndex(index, forKey: "NS.objects"), let values = uidArray(uid, "NS.objects"),
              keys.count == values.count else { return nil }
        let keysStart = plist.referencesStart(of: plist.dictionaryValue(index, pair: keyPair))
        let valuesStart = plist.referencesStart(of: plist.dictionaryValue(index, pair: valuePair))
        return (.objects(pair: keyPair, start: keysStart, count: keys.count), .objects(pair: valuePair, start: valuesStart, count: values.count))
    }

    /// The plist index of data held in a field value: inline data, or a UID of inline data or of an
    /// NSData/NSMutableData instance.
    public func dataIndex(_ value: Int?) -> Int? {
        guard let value else { return nil }
        if plist.kind(of: value) == .data { return value }
        guard let target = referencedUID(value), target != 0, let archiveClass = archiveClass(of: target) else { return nil }
        let index = plistIndex(of: target)
        if archiveClass.isInline { return plist.kind(of: index) == .data ? index : nil }
        guard archiveClass.shape == .data, let inner = plist.dictionaryValue(index, forKey: "NS.data"), plist.kind(of: inner) == .data else {
            return nil
        }
        return inner
    }

    /// The text of the string object a field refers to.
    public func referencedString(_ uid: Int, _ key: StaticString) -> String? {
        fieldTarget(uid, key).flatMap { stringValue(ofObject: $0) }
    }

    /// Whether field `key` holds data (`dataIndex`), of exactly `count` bytes when given.
    func hasData(_ uid: Int, _ key: StaticString, count: Int? = nil) -> Bool {
        guard let index = dataIndex(field(uid, key)) else { return false }
        guard let count else { return true }
        return plist.data(at: index)?.count == count
    }

    /// Whether field `key` is an inline finite number (an integer or a real).
    func hasFiniteNumber(_ uid: Int, _ key: StaticString) -> Bool {
        guard let index = scalarField(uid, key), plist.kind(of: index) == .real || plist.kind(of: index) == .integer else { return false }
        return plist.double(at: index)?.isFinite == true
    }

    /// Whether `referencedString(uid, key)` is non-nil, without building the string.
    func hasReferencedString(_ uid: Int, _ key: StaticString) -> Bool {
        guard let target = fieldTarget(uid, key) else { return false }
        return hasStringValue(ofObject: target)
    }

    /// The UID a field refers to; nil when the field is absent or not a UID.
    func fieldTarget(_ uid: Int, _ key: StaticString) -> Int? {
        field(uid, key).flatMap(referencedUID)
    }
}

/// How a collection object holds its elements.
enum CollectionLayout {
    /// An `NS.objects` array of UIDs: element `i` is the UID object at `references[start + i]`, and
    /// its site is element `i` of field pair `pair`.
    case objects(pair: Int, start: Int, count: Int)
    /// `NS.object.N` fields, in `N` order.
    case numbered([KeyedArchive.CollectionElement])

    var count: Int {
        switch self {
        case .objects(_, _, let count): count
        case .numbered(let elements): elements.count
        }
    }

    @inline(__always)
    func target(at position: Int, in archive: KeyedArchive) -> Int {
        switch self {
        case .objects(_, let start, _): archive.plist.uidValue(ofReference: archive.plist.references[start + position])
        case .numbered(let elements): elements[position].target
        }
    }

    @inline(__always)
    func site(at position: Int, uid: Int) -> ReferenceSite {
        switch self {
        case .objects(let pair, _, _): ReferenceSite(uid: uid, pair: pair, element: position)
        case .numbered(let elements): elements[position].site
        }
    }
}
