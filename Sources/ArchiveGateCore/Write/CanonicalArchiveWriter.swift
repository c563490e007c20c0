/// Builds the canonical `NSKeyedArchiver` property list of an archive's reachable graph: the work
/// behind `ArchiveSanitizer`. New UIDs are handed out breadth first from `$top` (a queue, no
/// recursion), so the numbering depends only on the graph, and writing the output again gives the
/// same output.
///
/// A plist string or data object is read once and shared by every site that references it (the
/// binary writer then writes it once): a 1 MiB string that 1,000 `$objects` entries share is one
/// string here, not 1,000 copies. What the tree holds is metered against `bound` as it is built.
struct CanonicalArchiveWriter {
    let archive: KeyedArchive
    let redactions: Redactions
    let policy: Policy
    /// Asked as the tree grows (one byte per field, element and new scalar byte: the least the
    /// output will take for them).
    private var meter: OutputMeter
    private var produced = 0
    /// String and data values by plist index, read once (`scalar`).
    private var sharedScalars: [Int: PropertyListValue] = [:]

    /// New UID by old UID; -1 when the object is not (yet) in the output.
    private var newUID: [Int32]
    /// Old UIDs in output order; the output's `$objects` (after `$null`) in the same order.
    private var queue: [Int] = []
    /// Class records written, by name and claimed chain.
    private var classRecords: [[[UInt16]]: UInt32] = [:]
    private var objects: [PropertyListValue] = ["$null"]

    init(archive: KeyedArchive, redactions: Redactions, policy: Policy, bound: OutputBound = .unlimited) {
        self.archive = archive
        self.redactions = redactions
        self.policy = policy
        meter = OutputMeter(bound)
        newUID = Array(repeating: -1, count: archive.objectCount)
        newUID[0] = 0
    }

    /// The archive as a property-list value: `$version`, `$archiver`, `$top`, `$objects`.
    /// - Throws: `archive.invalid_field_value` for a kept field holding a plist set (see `copy`);
    ///   `archive.output_limit_exceeded` when the bound refuses what the tree would write.
    mutating func build() throws(ArchiveError) -> PropertyListValue {
        var top = [PropertyListValue.Entry]()
        for entry in archive.top {
            let value: PropertyListValue
            if redactions.topNames.contains(entry.name) {
                value = .uid(0)
            } else if let inline = entry.inlineValue {
                value = scalar(inline)
            } else {
                value = .uid(reference(entry.uid))
            }
            top.append(PropertyListValue.Entry(key: entry.name, value: value))
        }
        var next = 0
        while next < queue.count {
            let old = queue[next]
            next += 1
            let value = try copy(old)
            objects[Int(newUID[old])] = value
            do {
                try meter.grew(to: produced)
            } catch {
                throw ArchiveError(.outputLimitExceeded, path: "/$objects/\(old)", "the sanitized archive \(error.reason)")
            }
        }
        return .dictionary([
            "$version": 100_000,
            "$archiver": "NSKeyedArchiver",
            "$top": .dictionary(top),
            "$objects": .array(objects),
        ])
    }

    /// The new UID of `old`, queueing it when first seen; 0 for redacted objects and class records
    /// (which the walk never reaches as values: `KeyedArchive` refuses them there).
    mutating func reference(_ old: Int) -> UInt32 {
        if redactions.objects.contains(old) { return 0 }
        if newUID[old] >= 0 { return UInt32(newUID[old]) }
        guard case .object = archive.entries[old] else { return 0 }
        let uid = objects.count
        objects.append(.null)
        newUID[old] = Int32(uid)
        queue.append(old)
        return UInt32(uid)
    }

    /// The new object for `old`: an inline scalar as it is, an instance with its class record
    /// shared, its kept fields in order and every UID in them renumbered or redacted. Kept: a
    /// custom class's fields (only those its schema names when it refuses unknown keys), a
    /// Foundation class's fields its shape decodes (`FoundationShape.keepsField`).
    ///
    /// A kept field holding a plist set (binary marker 0xC) is refused rather than written:
    /// NSKeyedArchiver never writes one (its collections are `NS.objects` arrays), and
    /// swift-corelibs-foundation's `NSKeyedUnarchiver` and `PropertyListSerialization` crash
    /// (SIGSEGV bridging the CFSet) on any binary plist that holds one, of UIDs or of plain
    /// integers alike. Dropping or nulling it would change the data without a reported violation.
    private mutating func copy(_ old: Int) throws(ArchiveError) -> PropertyListValue {
        let plist = archive.plist
        let index = archive.plistIndex(of: old)
        guard plist.kind(of: index) == .dictionary, let archiveClass = archive.archiveClass(of: old), !archiveClass.isInline else {
            return scalar(index)
        }
        var entries = [PropertyListValue.Entry(key: "$class", value: .uid(classRecord(archiveClass)))]
        defer { produced += entries.count }
        if let shape = archiveClass.shape, shape.isPointerCollection, let members = pointerCollectionFields(old, shape: shape) {
            return .dictionary(entries + members)
        }
        let schema = archiveClass.shape == nil ? policy.classes[archiveClass.name] : nil
        let objCTypedValue = archiveClass.shape == .value && plist.dictionaryPairIndex(index, forKey: "NS.special") == nil
        let dropped = droppedElements(old, archiveClass)
        for pair in 0 ..< plist.count(of: index) {
            guard let key = plist.string(at: plist.dictionaryKey(index, pair: pair)), key != "$class" else { continue }
            if let schema, schema.unknownKeys == .reject, schema.declaredExpectation(forKey: Self.userKey(key)) == nil { continue }
            if let shape = archiveClass.shape, !shape.keepsField(key, objCTypedValue: objCTypedValue) { continue }
            let value = plist.dictionaryValue(index, pair: pair)
            if plist.kind(of: value) == .set {
                throw ArchiveError(.invalidFieldValue, path: JSONPointer.appending("/$objects/\(old)", key),
                                   "a plist set: NSKeyedArchiver never writes one and swift-corelibs-foundation crashes decoding one, so sanitize does not write it")
            }
            let isElementList = !dropped.isEmpty && (key == "NS.objects" || key == "NS.keys")
            entries.append(PropertyListValue.Entry(key: key, value: field(value, site: ReferenceSite(uid: old, pair: pair),
                                                                          dropping: isElementList ? dropped : [])))
        }
        return .dictionary(entries)
    }

    /// The element positions of a Foundation collection whose element (or, for a dictionary, key or
    /// value) is redacted. Foundation's collections cannot hold nil — `$null` there makes the
    /// unarchiver fail, and the policy walk flags it — so the redacted entry is left out instead:
    /// for a dictionary, the key and the value together.
    private func droppedElements(_ old: Int, _ archiveClass: ArchiveClass) -> Set<Int> {
        guard let shape = archiveClass.shape, shape.isCollection || shape == .dictionary, !redactions.isEmpty else { return [] }
        let plist = archive.plist
        let index = archive.plistIndex(of: old)
        var dropped = Set<Int>()
        for key: StaticString in ["NS.objects", "NS.keys"] {
            guard let pair = plist.dictionaryPairIndex(index, forKey: key) else { continue }
            let list = plist.dictionaryValue(index, pair: pair)
            guard plist.kind(of: list) == .array else { continue }
            for (position, element) in plist.children(of: list).enumerated() where plist.kind(of: Int(element)) == .uid {
                let target = plist.uidValue(at: Int(element))
                if redactions.objects.contains(target) || redactions.sites.contains(ReferenceSite(uid: old, pair: pair, element: position)) {
                    dropped.insert(position)
                }
            }
        }
        return dropped
    }

    /// A field value: a UID renumbered (or `$null` at a redacted site), an array's elements the same
    /// way (leaving out the positions in `dropping`), a scalar as it is (or `$null` at a redacted site).
    private mutating func field(_ index: Int, site: ReferenceSite, dropping: Set<Int> = []) -> PropertyListValue {
        let plist = archive.plist
        switch plist.kind(of: index) {
        case .uid:
            return redactions.sites.contains(site) ? .uid(0) : .uid(reference(plist.uidValue(at: index)))
        case .array:
            var elements = [PropertyListValue]()
            for (position, element) in plist.children(of: index).enumerated() where !dropping.contains(position) {
                let elementSite = ReferenceSite(uid: Int(site.uid), pair: Int(site.pair), element: position)
                if plist.kind(of: Int(element)) == .uid {
                    elements.append(redactions.sites.contains(elementSite) ? .uid(0) : .uid(reference(plist.uidValue(at: Int(element)))))
                } else {
                    elements.append(redactions.sites.contains(elementSite) ? .uid(0) : scalar(Int(element)))
                }
            }
            produced += elements.count
            return .array(elements)
        default:
            // An inline value the policy refused (an inline type mismatch) is redacted at its site
            // like a reference: `$null` (FuzzWrite found a sanitized archive that kept it).
            return redactions.sites.contains(site) ? .uid(0) : scalar(index)
        }
    }

    /// A scalar plist value as it is; a string or data object is read once and shared (the same
    /// storage at every site). `KeyedArchive` has already refused containers where a scalar
    /// stands, so those cases are unreachable; they write `$null`'s UID rather than trap.
    mutating func scalar(_ index: Int) -> PropertyListValue {
        let plist = archive.plist
        let object = plist[index]
        switch object.kind {
        case .data, .asciiString, .utf8String, .utf16String:
            if let shared = sharedScalars[index] { return shared }
            let value = Self.scalarValue(index, plist: plist)
            sharedScalars[index] = value
            if case .data(let bytes) = value { produced += bytes.count } else if case .string(let text) = value { produced += text.utf8.count }
            return value
        default:
            return Self.scalarValue(index, plist: plist)
        }
    }

    private static func scalarValue(_ index: Int, plist: PropertyList) -> PropertyListValue {
        let object = plist[index]
        switch object.kind {
        case .integer: return .integer(plist.integer128(object))
        case .real: return .real(plist.realValue(at: index))
        case .date: return .date(plist.realValue(at: index))
        case .bool: return .bool(plist.boolValue(at: index))
        case .data: return .data(plist.data(at: index).map { Array($0) } ?? [])
        case .asciiString, .utf8String, .utf16String: return .string(plist.string(at: index) ?? "")
        case .null, .uid, .array, .set, .dictionary: return .uid(0)
        }
    }

    private mutating func classRecord(_ archiveClass: ArchiveClass) -> UInt32 {
        // The chain written leaves out classes smuggled in for the unarchiver to fall back on.
        let chain = DangerMatcher.chainToWrite(archiveClass)
        // By UTF-16 code units, as the runtime names classes: `café` and `cafe\u{301}` stay two records.
        let key = ([archiveClass.name] + chain).map { Array($0.utf16) }
        if let existing = classRecords[key] { return existing }
        let uid = UInt32(objects.count)
        objects.append(.dictionary(["$classname": .string(archiveClass.name),
                                    "$classes": .array(chain.map(PropertyListValue.string))]))
        classRecords[key] = uid
        return uid
    }

    /// The key a policy schema names: an archive key `$$x` is the user's `$x`.
    private static func userKey(_ key: String) -> String {
        key.hasPrefix("$$") ? String(key.dropFirst()) : key
    }
}
