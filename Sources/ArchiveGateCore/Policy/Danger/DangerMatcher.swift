/// Matches one archive's objects against a `DangerCatalogue`. Class entries are resolved once
/// per archive class; shapes are looked at only for the classes that can have them, so the walk
/// pays one array lookup per object.
struct DangerMatcher {
    /// A catalogue entry an object matches, and how (`via`/`matched` as `Finding` reports them).
    struct Match {
        var entry: DangerEntry
        var via: ValidationReport.Finding.Via?
        var matched: String?
    }

    /// What the catalogue says, arranged once per catalogue.
    let rules: DangerRules
    /// Per archive class: the entry its `$classname` (as looked up, or its claimed chain) matches.
    private let classMatches: [Match?]
    /// Per archive class: whether an object of it needs a look at all.
    let mayMatch: [Bool]
    /// Per archive class: whether its objects are looked at for predicate and expression keys
    /// (custom classes no class entry matched: Foundation's own shapes decode only their fields).
    private let checksKeys: [Bool]

    /// The matcher of `archive`'s classes: only they are resolved here, the rest is `rules`'.
    init(archive: KeyedArchive, rules: DangerRules = .builtIn) {
        self.rules = rules
        var matches: [Match?] = []
        var may: [Bool] = []
        var keys: [Bool] = []
        matches.reserveCapacity(archive.classes.count)
        may.reserveCapacity(archive.classes.count)
        keys.reserveCapacity(archive.classes.count)
        for classIndex in archive.classes.indices {
            let isInline = archive.classes[classIndex].isInline
            let shape = archive.classes[classIndex].shape
            var match = isInline ? nil : Self.classMatch(archive.classes[classIndex], catalogue: rules.catalogue)
            if match == nil, !isInline, let claimed = rules.claimedEntry, Self.claimsFoundationSuperclass(archive.classes[classIndex]) {
                match = Match(entry: claimed)
            }
            matches.append(match)
            let checksKeysHere = match == nil && !isInline && shape == nil && !rules.keyEntries.isEmpty
            keys.append(checksKeysHere)
            may.append(match != nil || checksKeysHere || shape == .url || shape == .data
                       || (isInline && archive.classes[classIndex].name == "NSData"))
        }
        classMatches = matches
        mayMatch = may
        checksKeys = keys
    }

    /// The class entry a class record matches: its `$classname` as written, then as Foundation's
    /// lookup sees it, then each class of its claimed chain (NSKeyedUnarchiver instantiates the
    /// first chain class it finds when it has no `$classname` class), also as looked up.
    static func classMatch(_ archiveClass: ArchiveClass, catalogue: DangerCatalogue) -> Match? {
        if let found = catalogue.classMatch(for: archiveClass.name) { return Match(entry: found.entry) }
        let lookup = ClassLookupName.normalised(archiveClass.name)
        if lookup != archiveClass.name, let found = catalogue.classMatch(for: lookup) {
            return Match(entry: found.entry, via: .lookup, matched: found.name)
        }
        for claimed in archiveClass.claimedChain.dropFirst() {
            if let found = catalogue.classMatch(for: ClassLookupName.normalised(claimed)) {
                return Match(entry: found.entry, via: .chain, matched: found.name)
            }
        }
        return nil
    }

    /// The `$classes` chain `sanitize` writes for a class record: as claimed, except that a class
    /// the catalogue names is left out unless the `$classname` itself is one (an NSComparisonPredicate
    /// may say it is an NSPredicate; `Innocent` may not smuggle one in for the unarchiver to fall
    /// back on).
    static func chainToWrite(_ archiveClass: ArchiveClass, catalogue: DangerCatalogue = .builtIn) -> [String] {
        let chain = archiveClass.claimedChain
        guard chain.count > 1 else { return chain }
        let own = catalogue.classMatch(for: archiveClass.name) ?? catalogue.classMatch(for: ClassLookupName.normalised(archiveClass.name))
        if own != nil { return chain }
        return [chain[0]] + chain.dropFirst().filter { catalogue.classMatch(for: ClassLookupName.normalised($0)) == nil }
    }

    /// The catalogue entry object `uid` (of archive class `classIndex`) matches, if any.
    func match(_ uid: Int, classIndex: Int, in archive: KeyedArchive) -> Match? {
        if let match = classMatches[classIndex] { return match }
        if checksKeys[classIndex], let match = keyMatch(uid, in: archive) { return match }
        // The class record is not copied out: a copy retains its name and claimed chain.
        if archive.classes[classIndex].shape == .url, let urlEntry = rules.urlEntry, let value = archive.field(uid, "NS.minimalBookmarkData"),
           archive.referencedUID(value) != 0 {
            return Match(entry: urlEntry)
        }
        if let nestedEntry = rules.nestedEntry, let bytes = Self.dataBytes(uid, archive: archive), Self.looksLikePropertyList(bytes) {
            return Match(entry: nestedEntry)
        }
        return nil
    }

    /// The first key entry one of whose keys object `uid` has as a field key (compared by UTF-16
    /// code units, as Foundation's `decodeObjectForKey:` does).
    private func keyMatch(_ uid: Int, in archive: KeyedArchive) -> Match? {
        let index = archive.plistIndex(of: uid)
        guard archive.plist.kind(of: index) == .dictionary else { return nil }
        for pair in 0 ..< archive.plist.count(of: index) {
            let keyIndex = archive.plist.dictionaryKey(index, pair: pair)
            if archive.plist.kind(of: keyIndex) == .asciiString {
                if let match = asciiKeyMatch(keyIndex, in: archive.plist) { return match }
                continue
            }
            guard let key = archive.plist.string(at: keyIndex),
                  key.utf8.count > 2, key.utf8.first == UInt8(ascii: "N") else { continue }
            if let found = rules.keys.first(where: { FoundationKey.equal($0.name, key) }) { return match(found) }
        }
        return nil
    }

    /// `keyMatch` for an ASCII key object, compared by its bytes in place: an ASCII string's text
    /// is its bytes, so byte equality is the UTF-16 equality above, without making a `String` per
    /// key and walking UTF-16 views (a fifth of a folder batch's `validate` CPU: issue 32). Keys of
    /// 2 bytes or fewer, longer than any of the rules' or not starting with `N` match none, and are
    /// refused on their length and first byte (most keys of a custom object).
    private func asciiKeyMatch(_ keyIndex: Int, in plist: PropertyList) -> Match? {
        let object = plist.objects[keyIndex]
        let length = Int(object.second)
        guard length > 2, length <= rules.longestKey else { return nil }
        let start = Int(object.first)
        let found = plist.bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, buffer[start] == UInt8(ascii: "N") else { return nil }
            for (position, candidate) in rules.keys.enumerated() where candidate.utf8.count == length {
                if candidate.utf8.withUnsafeBufferPointer({ memoryEquals(base + start, $0.baseAddress, length) }) { return position }
            }
            return nil
        }
        return found.map { match(rules.keys[$0]) }
    }

    private func match(_ key: DangerRules.Key) -> Match {
        Match(entry: rules.keyEntries[key.entry], via: .keys, matched: key.name)
    }

    /// The functions, selectors, key paths and class constants object `uid` names in its own fields.
    static func details(_ uid: Int, in archive: KeyedArchive) -> DangerDetails {
        var details = DangerDetails()
        func text(_ key: StaticString) -> String? {
            guard let value = archive.field(uid, key) else { return nil }
            if let target = archive.referencedUID(value) { return archive.stringValue(ofObject: target) }
            return archive.plist.string(at: value)
        }
        if let selector = text("NSSelectorName") {
            // An operator (NSCustomPredicateOperator) compares with its selector; an expression calls it.
            let isOperator = archive.field(uid, "NSOperatorType") != nil || archive.archiveClass(of: uid)?.name.hasSuffix("PredicateOperator") == true
            if isOperator { details.selectors.append(selector) } else { details.functions.append(selector) }
        }
        if let selector = text("NSSelector") { details.selectors.append(selector) }
        if let keyPath = text("NSKeyPath") { details.keyPaths.append(keyPath) }
        if let key = text("NSKey") { details.keyPaths.append(key) }
        if let constant = text("NSConstantValueClassName") { details.classConstants.append(constant) }
        return details
    }

    /// The bytes of an NSData object (inline data, or `NS.data` of an NSData/NSMutableData record).
    static func dataBytes(_ uid: Int, archive: KeyedArchive) -> Slice<ByteStorage>? {
        dataIndex(uid, archive: archive).flatMap { archive.plist.data(at: $0) }
    }

    /// The plist index of the bytes of an NSData object (inline data, or NS.data of an NSData
    /// object): where a nested archive sits, for the renderers to find it.
    static func dataIndex(_ uid: Int, archive: KeyedArchive) -> Int? {
        guard let classIndex = archive.classIndex(of: uid) else { return nil }
        let index = archive.plistIndex(of: uid)
        if archive.classes[classIndex].isInline { return archive.plist.kind(of: index) == .data ? index : nil }
        guard archive.classes[classIndex].shape == .data, let inner = archive.plist.dictionaryValue(index, forKey: "NS.data"),
              archive.plist.kind(of: inner) == .data else { return nil }
        return inner
    }

    /// A binary plist (`bplist`), an XML plist (`<?xml` / `<!DOCTYPE plist` / `<plist`, after
    /// optional whitespace or a UTF-8 byte-order mark) or an `NSArchiver` typedstream (its header,
    /// `TypedStream.hasHeader`: NSUnarchiver would decode it just as well).
    static func looksLikePropertyList(_ bytes: Slice<ByteStorage>) -> Bool {
        // Every NSData of an archive is looked at: read in place, not through the slice's
        // generic collection methods (2 % of validate's CPU on issue 18's dense archive).
        bytes.base.withUnsafeBufferPointer { buffer in
            looksLikePropertyList(UnsafeBufferPointer(rebasing: buffer[bytes.startIndex ..< bytes.endIndex]))
        }
    }

    private static func looksLikePropertyList(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if hasPrefix(bytes, from: 0, "bplist") || TypedStream.hasHeader(bytes) { return true }
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x09 || bytes[start] == 0x0A || bytes[start] == 0x0D { start += 1 }
        return hasPrefix(bytes, from: start, "<?xml") || hasPrefix(bytes, from: start, "<!DOCTYPE plist") || hasPrefix(bytes, from: start, "<plist")
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { prefix in
            guard bytes.count - start >= prefix.count else { return false }
            for offset in 0 ..< prefix.count where bytes[start + offset] != prefix[offset] { return false }
            return true
        }
    }

    /// A `$classname` Foundation does not define whose claimed chain names one it does (other
    /// than NSObject, every class's root).
    static func claimsFoundationSuperclass(_ archiveClass: ArchiveClass) -> Bool {
        guard !isFoundationClass(archiveClass.name) else { return false }
        return archiveClass.claimedChain.dropFirst().contains { $0 != "NSObject" && isFoundationClass($0) }
    }

    private static func isFoundationClass(_ name: String) -> Bool {
        FoundationShape(className: name) != nil || Policy.foundationGroup.contains(name)
    }
}
