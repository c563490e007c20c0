/// The NSKeyedArchiver structure of a property list: `$top` entries, the `$objects` table with
/// `$null` at UID 0, class records and the class of every object.
///
/// Construction validates the whole structure once — every UID in range, every `$class` a class
/// record, no class record used as a value, no reserved keys — so walkers can follow UIDs without
/// re-checking. Nothing is instantiated and `$classes` is only recorded, never trusted.
///
/// The tables live in one shared `Storage`: copying an archive, or capturing it in a closure or a
/// method reference (`field(…).flatMap(referencedUID)`), costs one retain, not one per table.
public struct KeyedArchive: Sendable {
    /// The archive's tables, immutable once read.
    @usableFromInline final class Storage: Sendable {
        @usableFromInline let plist: PropertyList
        @usableFromInline let top: [TopEntry]
        @usableFromInline let entries: EntryTable
        @usableFromInline let classes: [ArchiveClass]
        @usableFromInline let objectsStart: Int
        /// Per UID, the pair position of an instance's `$class` key (the classifier found it while
        /// reading every key once), or `unknownClassPair` (not an instance, or past 254 pairs).
        @usableFromInline let classPairs: [UInt8]
        /// The plist arrays held by an instance's field whose elements are all UIDs (the classifier
        /// read every element's kind once; `uidArray` need not read them again). One bit per plist object.
        let uidArrays: IndexBitSet

        init(plist: PropertyList, top: [TopEntry], entries: EntryTable, classes: [ArchiveClass], objectsStart: Int,
             classPairs: [UInt8], uidArrays: IndexBitSet) {
            self.plist = plist
            self.top = top
            self.entries = entries
            self.classes = classes
            self.objectsStart = objectsStart
            self.classPairs = classPairs
            self.uidArrays = uidArrays
        }
    }

    /// One `$top` entry: the name under which an object was encoded at the top level.
    public struct TopEntry: Hashable, Sendable {
        public let name: String
        /// The object encoded under `name`; 0 (`$null`) for an inline value.
        public let uid: Int
        /// The plist index of an inline bool, integer, real, string or data value: Foundation writes
        /// `encode(true, forKey: "HasUpdatedParentReference")` at the archiver's top level straight
        /// into `$top`. Nil for UIDs.
        public let inlineValue: Int?

        public init(name: String, uid: Int, inlineValue: Int? = nil) {
            self.name = name
            self.uid = uid
            self.inlineValue = inlineValue
        }
    }

    /// What a `$objects` entry is.
    public enum Entry: Hashable, Sendable {
        /// UID 0, `$null`: nil wherever it is referenced.
        case null
        /// A class record (`$classname`/`$classes`); only reachable through `$class`.
        case classRecord
        /// An instance or an inline scalar; the value indexes `classes`.
        case object(classIndex: Int)
    }

    @usableFromInline let storage: Storage

    // Read accessors lend the stored table (no copy, no retain) for the caller's access.
    @inlinable public var plist: PropertyList { _read { yield storage.plist } }
    @inlinable public var top: [TopEntry] { _read { yield storage.top } }
    /// The entry kind of every UID, 4 bytes each (`EntryTable`).
    @inlinable public var entries: EntryTable { _read { yield storage.entries } }
    /// The distinct classes in the archive, in first-seen order.
    @inlinable public var classes: [ArchiveClass] { _read { yield storage.classes } }
    @inlinable var objectsStart: Int { storage.objectsStart }
    /// `Storage.classPairs`: the answer is not known, compare the key.
    @usableFromInline static let unknownClassPair: UInt8 = .max

    /// The number of `$objects` entries, `$null` included.
    public var objectCount: Int { entries.count }

    /// The plist object index of the entry with this UID.
    @inlinable
    public func plistIndex(of uid: Int) -> Int { Int(plist.references[objectsStart + uid]) }

    /// The class of the object with this UID, or nil for `$null` and class records.
    public func archiveClass(of uid: Int) -> ArchiveClass? {
        let code = entries.codes[uid]
        return code >= 0 ? classes[Int(code)] : nil
    }

    /// The class-table index of the object with this UID, or nil for `$null` and class records.
    @inlinable
    public func classIndex(of uid: Int) -> Int? {
        let code = entries.codes[uid]
        return code >= 0 ? Int(code) : nil
    }

    /// `archive.not_a_keyed_archive` (verdict `plist`: front ends then render the plain property
    /// list), unless the property list contains itself: that is no sound property list at all, and
    /// every door says so alike (`archive.collection_cycle`).
    private static func notAKeyedArchive(_ plist: PropertyList, _ message: String) -> ArchiveError {
        if let problem = plist.cyclicReferenceProblem() { return ArchiveError(.collectionCycle, path: "", problem) }
        return ArchiveError(.notAKeyedArchive, path: "", message)
    }

    /// Validates the keyed-archive structure of `plist`; `classTag` is asked once per distinct
    /// instance class (the Foundation layer's `init(plist:maxObjects:)` supplies it).
    public init(plist: PropertyList, maxObjects: Int, classTag: @escaping (String) -> ClassTag) throws(ArchiveError) {
        var plist = plist
        let root = plist.root
        guard plist.kind(of: root) == .dictionary else {
            throw Self.notAKeyedArchive(plist, "the top-level object is a \(plist.kind(of: root)), not a dictionary")
        }
        guard let archiver = plist.dictionaryValue(root, forKey: "$archiver"),
              let objectsIndex = plist.dictionaryValue(root, forKey: "$objects"),
              let topIndex = plist.dictionaryValue(root, forKey: "$top") else {
            throw Self.notAKeyedArchive(plist, "a keyed archive has $archiver, $top and $objects")
        }
        guard plist.stringEquals(archiver, "NSKeyedArchiver") else {
            let name = plist.string(at: archiver) ?? "a \(plist.kind(of: archiver))"
            throw ArchiveError(.unsupportedArchiver, path: "/$archiver", "archiver is '\(name)', expected 'NSKeyedArchiver'")
        }
        guard let version = plist.dictionaryValue(root, forKey: "$version"), plist.kind(of: version) == .integer else {
            throw ArchiveError(.invalidVersion, path: "/$version", "$version is missing or not an integer")
        }
        // The only version NSKeyedArchiver has ever written; Foundation refuses any other.
        guard plist.int64(at: version) == 100_000 else {
            throw ArchiveError(.invalidVersion, path: "/$version", "$version is \(plist.integer128(plist[version])), expected 100000")
        }
        guard plist.kind(of: objectsIndex) == .array, plist.count(of: objectsIndex) >= 1 else {
            throw ArchiveError(.invalidObjects, path: "/$objects", "$objects must be a non-empty array")
        }
        let count = plist.count(of: objectsIndex)
        guard count <= maxObjects else {
            throw ArchiveError(.objectLimitExceeded, path: "/$objects", "\(count) objects; the limit is \(maxObjects)")
        }
        let objectsStart = plist.referencesStart(of: objectsIndex)
        let objectPlistIndices = plist.children(of: objectsIndex)
        guard plist.stringEquals(Int(objectPlistIndices.first!), "$null") else {
            throw ArchiveError(.invalidObjects, path: "/$objects/0", "$objects[0] must be the string '$null'")
        }

        var classifier = EntryClassifier(plist: plist, objectsStart: objectsStart, count: count, classTag: classTag)
        try classifier.classifyAll()
        let entries = EntryTable(codes: classifier.entries)
        // Foundation's decoder takes any referenced string "$null" for nil, not only UID 0: it
        // compares the string, not the index. Such references are read as UID 0 from here on, so
        // the walk, the shape checks and the renderers see the nil Foundation decodes.
        if !classifier.nullStrings.isEmpty {
            plist = plist.retargetingUIDs(classifier.nullStrings, to: 0)
        }

        guard plist.kind(of: topIndex) == .dictionary else {
            throw ArchiveError(.invalidTop, path: "/$top", "$top must be a dictionary")
        }
        var top = [TopEntry]()
        for pair in 0 ..< plist.count(of: topIndex) {
            let name = plist.string(at: plist.dictionaryKey(topIndex, pair: pair)) ?? ""
            let value = plist.dictionaryValue(topIndex, pair: pair)
            let path = JSONPointer.appending("/$top", name)
            guard let uid = plist.uid(at: value) else {
                switch plist.kind(of: value) {
                case .bool, .integer, .real, .asciiString, .utf8String, .utf16String, .data:
                    top.append(TopEntry(name: name, uid: 0, inlineValue: value))
                    continue
                default:
                    throw ArchiveError(.invalidTop, path: path, "$top values must be UIDs or inline scalars, found a \(plist.kind(of: value))")
                }
            }
            try classifier.checkReference(uid, path: path)
            top.append(TopEntry(name: name, uid: uid))
        }
        storage = Storage(plist: plist, top: top, entries: entries, classes: classifier.classes, objectsStart: objectsStart,
                          classPairs: classifier.classPairs, uidArrays: classifier.uidArrays)
    }
}

extension KeyedArchive {
    /// `$0`, `$1`, …: the keys NSKeyedArchiver generates for unkeyed encoding
    /// (`encodeArrayOfObjCType`, top-level `encodeObject:` without a key).
    static func isGeneratedKey(_ key: String) -> Bool {
        key.utf8.count > 1 && key.utf8.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}

/// The one-pass classification of `$objects` behind `KeyedArchive.init`.
private struct EntryClassifier {
    let plist: PropertyList
    let classTag: (String) -> ClassTag
    let objectsStart: Int
    let count: Int
    /// `EntryTable` codes: a class index, or `EntryTable.nullCode` / `EntryTable.classRecordCode`.
    var entries: [Int32]
    var classes: [ArchiveClass] = []
    private var classIndexByName: [String: Int] = [:]
    /// An instance's code between the passes when it has a reserved key besides `$class` (any
    /// other instance's code is then its `$class` pair position; neither is a class record's).
    private static let instanceWithReservedKey: Int32 = -3
    /// Class-table indices of the inline pseudo-classes NSString, NSData, NSDate, NSNumber; -1 until seen.
    private var inlineClassIndex = [-1, -1, -1, -1]
    /// The class-table index of each class record resolved so far, by UID; -1 when not yet.
    private var classIndexByRecord: [Int32]
    /// UIDs other than 0 of strings equal to "$null" (nil wherever referenced).
    var nullStrings: Set<Int> = []
    /// Each instance's `$class` pair position as pass 1 found it (`KeyedArchive.Storage.classPairs`).
    var classPairs: [UInt8]
    /// Arrays in instance fields whose every element is a UID (`KeyedArchive.Storage.uidArrays`).
    var uidArrays: IndexBitSet

    init(plist: PropertyList, objectsStart: Int, count: Int, classTag: @escaping (String) -> ClassTag) {
        self.plist = plist
        self.classTag = classTag
        self.objectsStart = objectsStart
        self.count = count
        self.entries = Array(repeating: EntryTable.nullCode, count: count)
        self.classIndexByRecord = Array(repeating: -1, count: count)
        self.classPairs = Array(repeating: KeyedArchive.unknownClassPair, count: count)
        self.uidArrays = IndexBitSet(count: plist.objects.count)
    }

    func plistIndex(_ uid: Int) -> Int { Int(plist.references[objectsStart + uid]) }

    mutating func classifyAll() throws(ArchiveError) {
        // Pass 1: find class records so that pass 2 can resolve `$class` in any order.
        for uid in 1 ..< count {
            let index = plistIndex(uid)
            var path: String { "/$objects/\(uid)" }
            let kind = plist.kind(of: index)
            switch kind {
            case .dictionary:
                var hasClassName = false
                var hasClass = false
                var hasClasses = false
                var hasReserved = false
                var classPair = 0
                let referencesStart = plist.referencesStart(of: index)
                for pair in 0 ..< plist.count(of: index) {
                    switch role(of: Int(plist.references[referencesStart + 2 * pair])) {
                    case .className: hasClassName = true
                    case .class: hasClass = true; classPair = pair
                    case .classes: hasClasses = true
                    case .reserved: hasReserved = true
                    case .plain, .generated: break
                    }
                }
                if hasClassName && hasClass {
                    throw ArchiveError(.invalidObject, path: path, "an entry cannot be both a class record and an instance")
                }
                if hasClassName {
                    entries[uid] = EntryTable.classRecordCode
                } else if !hasClass, hasClasses {
                    throw ArchiveError(.invalidClassRecord, path: path + "/$classname", "class record has $classes but no $classname")
                } else if !hasClass {
                    throw ArchiveError(.missingClass, path: path, "dictionary has neither $class nor $classname")
                } else {
                    // Until pass 2 replaces it with the class index: where `$class` is, so that
                    // pass 2 need not read the keys again, or that a reserved key needs its check.
                    entries[uid] = hasReserved || hasClasses ? Self.instanceWithReservedKey : Int32(classPair)
                    if classPair < Int(KeyedArchive.unknownClassPair) { classPairs[uid] = UInt8(classPair) }
                }
            case .asciiString, .utf8String, .utf16String, .integer, .real, .bool, .data, .date:
                entries[uid] = Int32(inlineClass(for: kind))
                if kind == .asciiString || kind == .utf8String || kind == .utf16String, plist.stringEquals(index, "$null") {
                    nullStrings.insert(uid)
                }
            default:
                throw ArchiveError(.invalidObjects, path: path, "a \(kind) cannot be a $objects entry")
            }
        }
        // Pass 2: resolve instances' classes and check every field.
        for uid in 1 ..< count where plist.kind(of: plistIndex(uid)) == .dictionary {
            if entries[uid] == EntryTable.classRecordCode { continue }
            entries[uid] = Int32(try resolveInstance(uid))
        }
    }

    /// What a key object is to the classifier.
    private enum KeyRole {
        /// Does not start with a single `$`: a user key (`$$` escapes a user's leading `$`).
        case plain
        case `class`, className, classes
        /// `$0`, `$1`, …: a key the archiver generates for unkeyed encoding.
        case generated
        /// Any other key starting with a single `$`: reserved by the archiver.
        case reserved
    }

    /// The role of key object `keyIndex`, read from its text (every key of every entry, twice:
    /// the archives met here store each key anew per dictionary, so a memo by object would not
    /// pay). A packed ASCII/UTF-8 key is decided by its first byte and length from the tag and
    /// payload word; other keys take the general path.
    @inline(__always)
    private func role(of keyIndex: Int) -> KeyRole {
        if let (start, length) = plist.objects.packedByteString(at: keyIndex) {
            guard length > 0, plist.bytes[start] == UInt8(ascii: "$") else { return .plain }
            if length > 1, plist.bytes[start + 1] == UInt8(ascii: "$") { return .plain }
            switch length {
            case 6 where plist.stringEquals(keyIndex, "$class"): return .class
            case 8 where plist.stringEquals(keyIndex, "$classes"): return .classes
            case 10 where plist.stringEquals(keyIndex, "$classname"): return .className
            default: return singleDollarRole(keyIndex)
            }
        }
        // Keys are strings (both readers refuse others); a table built another way reads as plain.
        guard plist.objects[keyIndex].isString, startsWithSingleDollar(keyIndex) else { return .plain }
        if plist.stringEquals(keyIndex, "$class") { return .class }
        if plist.stringEquals(keyIndex, "$classname") { return .className }
        if plist.stringEquals(keyIndex, "$classes") { return .classes }
        return singleDollarRole(keyIndex)
    }

    /// A key other than the class keys that starts with a single `$` (rare: kept out of line).
    @inline(never)
    private func singleDollarRole(_ keyIndex: Int) -> KeyRole {
        KeyedArchive.isGeneratedKey(plist.string(at: keyIndex) ?? "") ? .generated : .reserved
    }

    private mutating func inlineClass(for kind: PropertyListObject.Kind) -> Int {
        let slot: Int
        switch kind {
        case .asciiString, .utf8String, .utf16String: slot = 0
        case .data: slot = 1
        case .date: slot = 2
        default: slot = 3
        }
        if inlineClassIndex[slot] >= 0 { return inlineClassIndex[slot] }
        let name = ["NSString", "NSData", "NSDate", "NSNumber"][slot]
        classes.append(ArchiveClass(name: name, claimedChain: [], isInline: true, tag: .none))
        inlineClassIndex[slot] = classes.count - 1
        return classes.count - 1
    }

    private mutating func resolveInstance(_ uid: Int) throws(ArchiveError) -> Int {
        let index = plistIndex(uid)
        var classIndex: Int?
        let referencesStart = plist.referencesStart(of: index)
        let passOneCode = entries[uid]
        for pair in 0 ..< plist.count(of: index) {
            let keyIndex = Int(plist.references[referencesStart + 2 * pair])
            let value = Int(plist.references[referencesStart + 2 * pair + 1])
            // Pass 1 read every key: without a reserved key, only the `$class` pair is special.
            let keyRole: KeyRole
            if passOneCode >= 0 {
                keyRole = pair == Int(passOneCode) ? .class : .plain
            } else {
                keyRole = role(of: keyIndex)
            }
            switch keyRole {
            case .class:
                guard let record = plist.uid(at: value), record < count, entries[record] == EntryTable.classRecordCode else {
                    throw ArchiveError(.invalidClassReference, path: "/$objects/\(uid)/$class", "$class must be the UID of a class record")
                }
                classIndex = try classIndexForRecord(record)
                continue
            case .className, .classes, .reserved:
                let key = plist.string(at: keyIndex) ?? ""
                throw ArchiveError(.reservedKey, path: fieldPath(uid, keyIndex),
                                   "key '\(key)' starts with a single '$', which the archiver reserves")
            case .plain, .generated:
                break
            }
            try checkFieldValue(value, uid: uid, keyIndex: keyIndex)
        }
        guard let classIndex else {
            throw ArchiveError(.missingClass, path: "/$objects/\(uid)", "instance has no $class")
        }
        return classIndex
    }

    /// Whether a key starts with `$` but not `$$`, read from its bytes (keys are mostly ASCII).
    private func startsWithSingleDollar(_ keyIndex: Int) -> Bool {
        if plist.kind(of: keyIndex) == .utf16String { return plist.string(at: keyIndex).map { $0.hasPrefix("$") && !$0.hasPrefix("$$") } ?? false }
        let (start, length) = plist.stringStorage(at: keyIndex)
        guard length > 0, plist.bytes[start] == UInt8(ascii: "$") else { return false }
        return length == 1 || plist.bytes[start + 1] != UInt8(ascii: "$")
    }

    /// The JSON pointer of a field, built only when an error needs it.
    private func fieldPath(_ uid: Int, _ keyIndex: Int) -> String {
        JSONPointer.appending("/$objects/\(uid)", plist.string(at: keyIndex) ?? "")
    }

    private mutating func classIndexForRecord(_ record: Int) throws(ArchiveError) -> Int {
        if classIndexByRecord[record] >= 0 { return Int(classIndexByRecord[record]) }
        let index = plistIndex(record)
        let path = "/$objects/\(record)"
        guard let nameIndex = plist.dictionaryValue(index, forKey: "$classname"), let name = plist.string(at: nameIndex) else {
            throw ArchiveError(.invalidClassRecord, path: path + "/$classname", "$classname must be a string")
        }
        var chain = [String]()
        if let chainIndex = plist.dictionaryValue(index, forKey: "$classes") {
            guard plist.kind(of: chainIndex) == .array else {
                throw ArchiveError(.invalidClassRecord, path: path + "/$classes", "$classes must be an array of strings")
            }
            for element in plist.children(of: chainIndex) {
                guard let link = plist.string(at: Int(element)) else {
                    throw ArchiveError(.invalidClassRecord, path: path + "/$classes", "$classes must be an array of strings")
                }
                chain.append(link)
            }
        }
        let classIndex: Int
        if let existing = classIndexByName[name] {
            classIndex = existing
        } else {
            classes.append(ArchiveClass(name: name, claimedChain: chain, isInline: false, tag: classTag(name)))
            classIndex = classes.count - 1
            classIndexByName[name] = classIndex
        }
        classIndexByRecord[record] = Int32(classIndex)
        return classIndex
    }

    /// Field values are UIDs, scalars, or flat arrays of those; nothing an archiver writes nests
    /// deeper. A binary plist set (marker 0xC) is refused: NSKeyedArchiver never writes one, and
    /// swift-corelibs-foundation's unarchiver crashes (SIGSEGV) on an archive holding one, so
    /// "valid" could not promise that Foundation decodes it.
    ///
    /// Always inlined into the per-field loop (a call copied the classifier's fields per field);
    /// UIDs and scalars, nearly every field, are decided here, containers out of line.
    @inline(__always)
    private mutating func checkFieldValue(_ value: Int, uid: Int, keyIndex: Int) throws(ArchiveError) {
        switch plist.kind(of: value) {
        case .uid:
            if !isValueReference(plist.uidValue(at: value)) { try checkReference(plist.uidValue(at: value), path: fieldPath(uid, keyIndex)) }
        case .set, .array, .dictionary, .null:
            try checkContainerFieldValue(value, uid: uid, keyIndex: keyIndex)
        default:
            break
        }
    }

    /// `checkFieldValue` for a container or null value.
    private mutating func checkContainerFieldValue(_ value: Int, uid: Int, keyIndex: Int) throws(ArchiveError) {
        switch plist.kind(of: value) {
        case .set:
            throw ArchiveError(.invalidFieldValue, path: fieldPath(uid, keyIndex),
                               "a field cannot hold a plist set: NSKeyedArchiver never writes one and Foundation's unarchiver crashes on one")
        case .array:
            // By index into `references`: an `ArraySlice` of it would retain and release the array.
            let start = plist.referencesStart(of: value)
            var allUIDs = true
            for position in 0 ..< plist.count(of: value) {
                let element = plist.references[start + position]
                switch plist.kind(of: Int(element)) {
                case .uid:
                    if !isValueReference(plist.uidValue(ofReference: element)) {
                        try checkReference(plist.uidValue(ofReference: element), path: JSONPointer.appending(fieldPath(uid, keyIndex), position))
                    }
                case .array, .set, .dictionary, .null:
                    throw ArchiveError(.invalidFieldValue, path: JSONPointer.appending(fieldPath(uid, keyIndex), position),
                                       "a field's array holds a nested \(plist.kind(of: Int(element)))")
                default:
                    allUIDs = false
                }
            }
            if allUIDs { _ = uidArrays.insert(value) }
        case .dictionary, .null:
            throw ArchiveError(.invalidFieldValue, path: fieldPath(uid, keyIndex), "a field cannot hold a \(plist.kind(of: value))")
        default:
            break
        }
    }

    /// The fast check behind `checkReference`: in range and not a class record.
    @inline(__always)
    private func isValueReference(_ uid: Int) -> Bool {
        uid < count && entries[uid] != EntryTable.classRecordCode
    }

    /// A UID used as a value: in range and not a class record.
    func checkReference(_ uid: Int, path: String) throws(ArchiveError) {
        guard uid < count else {
            throw ArchiveError(.danglingUID, path: path, "UID \(uid) points past the \(count) entries of $objects")
        }
        if entries[uid] == EntryTable.classRecordCode {
            throw ArchiveError(.classRecordAsValue, path: path, "UID \(uid) is a class record, used as a value")
        }
    }
}
