/// Matches one archive's objects against a `DangerCatalogue`. Class entries are resolved once
/// per archive class; shapes are looked at only for the classes that can have them, so the walk
/// pays one array lookup per object.
struct DangerMatcher {
    let catalogue: DangerCatalogue
    /// Per archive class: the entry its `$classname` (or claimed chain) matches.
    private let classEntries: [DangerEntry?]
    /// Per archive class: whether an object of it needs a look at all.
    let mayMatch: [Bool]
    private let urlEntry: DangerEntry?
    private let nestedEntry: DangerEntry?

    init(archive: KeyedArchive, catalogue: DangerCatalogue) {
        self.catalogue = catalogue
        urlEntry = catalogue.shapeEntry(.urlBookmark)
        nestedEntry = catalogue.shapeEntry(.nestedArchive)
        let claimed = catalogue.shapeEntry(.claimedFoundationSuperclass)
        var entries: [DangerEntry?] = []
        var may: [Bool] = []
        for archiveClass in archive.classes {
            var entry = archiveClass.isInline ? nil : catalogue.classEntry(for: archiveClass.name)
            if entry == nil, !archiveClass.isInline, Self.claimsFoundationSuperclass(archiveClass) { entry = claimed }
            entries.append(entry)
            may.append(entry != nil || archiveClass.shape == .url || archiveClass.shape == .data
                       || (archiveClass.isInline && archiveClass.name == "NSData"))
        }
        classEntries = entries
        mayMatch = may
    }

    /// The catalogue entry object `uid` (of archive class `classIndex`) matches, if any.
    func match(_ uid: Int, classIndex: Int, in archive: KeyedArchive) -> DangerEntry? {
        if let entry = classEntries[classIndex] { return entry }
        // The class record is not copied out: a copy retains its name and claimed chain.
        if archive.classes[classIndex].shape == .url, let urlEntry, let value = archive.field(uid, "NS.minimalBookmarkData"),
           archive.referencedUID(value) != 0 {
            return urlEntry
        }
        if let nestedEntry, let bytes = Self.dataBytes(uid, archive: archive), Self.looksLikePropertyList(bytes) {
            return nestedEntry
        }
        return nil
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

    /// A binary plist (`bplist`) or an XML plist (`<?xml` / `<!DOCTYPE plist` / `<plist`, after
    /// optional whitespace or a UTF-8 byte-order mark).
    static func looksLikePropertyList(_ bytes: Slice<ByteStorage>) -> Bool {
        // Every NSData of an archive is looked at: read in place, not through the slice's
        // generic collection methods (2 % of validate's CPU on issue 18's dense archive).
        bytes.base.withUnsafeBufferPointer { buffer in
            looksLikePropertyList(UnsafeBufferPointer(rebasing: buffer[bytes.startIndex ..< bytes.endIndex]))
        }
    }

    private static func looksLikePropertyList(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if hasPrefix(bytes, from: 0, "bplist") { return true }
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
