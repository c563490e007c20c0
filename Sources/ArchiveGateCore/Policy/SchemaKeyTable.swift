/// The key schemas of the archive's classes, compiled once per walk into flat tables so that a
/// field's key is matched by comparing its raw bytes — no `String` is built, hashed or compared on
/// the success path.
///
/// Every class with a schema gets a run of *slots*: one per name in `keys`, then one per name in
/// `required` that `keys` lacks. Byte comparison decides only when every name of the class and the
/// archive key are ASCII; anything else is compared by UTF-16 code units (`FoundationKey`), as
/// Foundation compares NSString keys — never by canonical equivalence.
struct SchemaKeyTable {
    /// A class's run of slots.
    struct ClassSlots {
        var first: Int
        var count: Int
        var asciiOnly: Bool
        var unknownKeys: Policy.UnknownKeys
        var requiredCount: Int
    }

    /// Compiled schema by archive class index; -1 for classes without a schema.
    private(set) var schemaOfClass: [Int]
    private(set) var classSlots: [ClassSlots] = []
    /// The user-key names of all slots (unescaped: `$x`, not `$$x`).
    private(set) var names: [String] = []
    /// The declared expectation of each slot; nil for names only in `required`.
    private(set) var declared: [Expectation?] = []
    /// Position in the schema's `required` (its first occurrence), or -1.
    private(set) var requiredSlot: [Int] = []
    /// `names`' UTF-8 bytes, back to back, with each slot's range; used for ASCII-only classes.
    private var nameBytes: [UInt8] = []
    private var nameStart: [Int] = []
    private var nameEnd: [Int] = []
    /// The registered `ExpectationTable` entry of each declared slot, or -1 until first needed.
    var entries: [Int32] = []
    /// The slot matched last, per compiled class and field pair position (the first
    /// `guessedPairs` pairs; -1 none): objects of one class list their keys in the same order, so
    /// pair `p` of the next object usually names the same slot — whatever order the schema's
    /// names are in. (A guess only: it is checked by comparing the name like any other slot.)
    private var pairMatch: [Int32] = []
    private static let guessedPairs = 16
    /// The `required` names of each compiled class, for messages.
    private(set) var requiredNames: [[String]] = []

    init(classes: [ArchiveClass], policy: Policy) {
        schemaOfClass = Array(repeating: -1, count: classes.count)
        var compiledByName: [String: Int] = [:]
        for (classIndex, archiveClass) in classes.enumerated() {
            guard !archiveClass.isInline, archiveClass.shape == nil, let schema = policy.classes[archiveClass.name] else { continue }
            if let known = compiledByName[archiveClass.name] {
                schemaOfClass[classIndex] = known
                continue
            }
            schemaOfClass[classIndex] = compile(schema)
            compiledByName[archiveClass.name] = schemaOfClass[classIndex]
        }
    }

    private mutating func compile(_ schema: Policy.ClassSchema) -> Int {
        var classNames = Array(schema.keys.keys)
        for name in schema.required where !classNames.contains(where: { FoundationKey.equal($0, name) }) { classNames.append(name) }
        let first = names.count
        var asciiOnly = true
        for name in classNames {
            names.append(name)
            declared.append(schema.keys[name])
            requiredSlot.append(schema.required.firstIndex { FoundationKey.equal($0, name) } ?? -1)
            entries.append(-1)
            nameStart.append(nameBytes.count)
            nameBytes.append(contentsOf: name.utf8)
            nameEnd.append(nameBytes.count)
            if name.utf8.contains(where: { $0 >= 0x80 }) { asciiOnly = false }
        }
        classSlots.append(ClassSlots(first: first, count: classNames.count, asciiOnly: asciiOnly,
                                     unknownKeys: schema.unknownKeys, requiredCount: schema.required.count))
        pairMatch.append(contentsOf: repeatElement(-1, count: Self.guessedPairs))
        requiredNames.append(schema.required)
        return classSlots.count - 1
    }

    /// What matching a key by its bytes found (`asciiSlot`).
    enum AsciiKeyMatch {
        /// The schema's slot with this name.
        case slot(Int)
        /// The class's schema has no key of this name.
        case notInSchema
        /// The key is not ASCII: it must be decoded and compared as a `String`.
        case notASCII
    }

    /// The slot whose name equals the user key of the string object `keyIndex` of `plist` (the
    /// archive escapes a user key `$x` as `$$x`). Only valid when `classSlots[compiled].asciiOnly`
    /// and the key is not a UTF-16 string.
    ///
    /// The plist is a borrowed parameter, not read through the evaluator inside one of its mutating
    /// methods: that copied the whole `PropertyList` (six retains and releases) per field.
    mutating func asciiSlot(_ compiled: Int, keyIndex: Int, pair: Int, in plist: PropertyList) -> AsciiKeyMatch {
        let guess = pair < Self.guessedPairs ? compiled * Self.guessedPairs + pair : -1
        let (start, length) = plist.stringStorage(at: keyIndex)
        var candidate = -1
        let match = plist.bytes.withUnsafeBufferPointer { buffer -> AsciiKeyMatch in
            var bytes = UnsafeBufferPointer(rebasing: buffer[start ..< start + length])
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return .notASCII }
            if bytes.count >= 2, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "$") {
                bytes = UnsafeBufferPointer(rebasing: bytes[1...])
            }
            guard let found = findAsciiSlot(compiled, key: bytes, from: guess >= 0 ? Int(pairMatch[guess]) : 0) else { return .notInSchema }
            candidate = found.candidate
            return .slot(found.slot)
        }
        if guess >= 0, candidate >= 0 { pairMatch[guess] = Int32(candidate) }
        return match
    }

    /// The slot whose name equals the ASCII user key `key` and its position in the class's run,
    /// searched from position `start` (every position is tried; names within a class are distinct).
    private func findAsciiSlot(_ compiled: Int, key: UnsafeBufferPointer<UInt8>, from start: Int) -> (slot: Int, candidate: Int)? {
        let slots = classSlots[compiled]
        guard slots.count > 0 else { return nil }
        var candidate = max(start, 0)
        for _ in 0 ..< slots.count {
            if candidate >= slots.count { candidate = 0 }
            let slot = slots.first + candidate
            if nameEquals(slot, key) { return (slot, candidate) }
            candidate += 1
        }
        return nil
    }

    /// The slot whose name is `key` by UTF-16 code units (`FoundationKey`, the general path), or nil.
    func slot(_ compiled: Int, key: String) -> Int? {
        let slots = classSlots[compiled]
        for slot in slots.first ..< slots.first + slots.count where FoundationKey.equal(names[slot], key) { return slot }
        return nil
    }

    private func nameEquals(_ slot: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = nameStart[slot]
        guard nameEnd[slot] - start == key.count else { return false }
        if key.isEmpty { return true }
        return nameBytes.withUnsafeBufferPointer { stored in
            memoryEquals(stored.baseAddress! + start, key.baseAddress, key.count)
        }
    }
}
