/// Reads `bplist00` into a flat `PropertyList`.
///
/// The trailer and every offset-table entry are validated once, up front, with overflow-checked
/// arithmetic; then each object is decoded in one pass over the offset table. Every length read from
/// the file is compared with the bytes that remain before anything is allocated from it, and no
/// read depends on recursion: containers only record the indices of their children.
struct BinaryPropertyListReader {
    static let header: [UInt8] = Array("bplist00".utf8)
    static let trailerSize = 32

    let bytes: ByteStorage
    let limits: PropertyListLimits

    static func hasBinaryHeader(_ bytes: ByteStorage) -> Bool {
        bytes.count >= 8 && bytes[0 ..< 8].elementsEqual(header)
    }

    private struct Trailer {
        var offsetSize: Int
        var referenceSize: Int
        var objectCount: Int
        var topObject: Int
        var offsetTableStart: Int
    }

    func read() throws(PropertyListError) -> PropertyList {
        let trailer = try readTrailer()
        let referenceEstimate = try validateOffsetTable(trailer)
        // Exact for well-formed files (no regrowth, no slack); never more than the object area
        // could hold, whatever the counts claim (`ReferenceSink` takes over past that).
        let referenceCapacity = min(referenceEstimate, trailer.offsetTableStart / trailer.referenceSize)
        var objects = PropertyListObjectTable()
        var failure: PropertyListError?
        var movedReferences: [UInt32]?
        // Coverage of the object area, followed while decoding (`CoverageCursor`): objects written
        // back to back need no second pass over the offset table and the markers.
        var coverage = CoverageCursor()
        var references = [UInt32](unsafeUninitializedCapacity: referenceCapacity) { storage, initialized in
            var sink = ReferenceSink(storage: storage)
            do throws(PropertyListError) {
                objects = try bytes.withUnsafeBufferPointer { (buffer) throws(PropertyListError) in
                    let cursor = BinaryObjectDecoder(buffer: buffer, end: trailer.offsetTableStart,
                                                     referenceSize: trailer.referenceSize,
                                                     objectCount: trailer.objectCount, limits: limits)
                    // The table was validated above; each entry is read again here rather than kept in an array.
                    var trails = Trails(bytes, trailer)
                    defer { trails.finish() }
                    return try PropertyListObjectTable.filled(count: trailer.objectCount) { (index) throws(PropertyListError) in
                        let entry = trailer.offsetTableStart + index * trailer.offsetSize
                        let offset = Int(cursor.readBigEndian(at: entry, size: trailer.offsetSize))
                        let object = try cursor.decode(at: offset, references: &sink)
                        coverage.note(buffer, decodedAt: offset, referenceSize: trailer.referenceSize)
                        trails.pass(entry: entry, object: offset)
                        return object
                    }
                }
            } catch {
                failure = error
            }
            (initialized, movedReferences) = sink.finish()
        }
        if let failure { throw failure }
        if let movedReferences { references = movedReferences }
        var plist = PropertyList(format: .binary, objects: objects, references: references, bytes: bytes,
                                 root: trailer.topObject)
        plist.unaccountedByteOffset = bytes.withUnsafeBufferPointer { (buffer) -> Int? in
            if let covered = coverage.inOrderEnd { return covered == trailer.offsetTableStart ? nil : covered }
            return Self.firstUncoveredByte(buffer, tableStart: trailer.offsetTableStart, offsetSize: trailer.offsetSize,
                                           objectCount: trailer.objectCount, referenceSize: trailer.referenceSize)
        }
        // Dictionaries in object order, found by their kind byte (a list of them would be 16 B per
        // dictionary at the reader's peak); an error's offset is read back from the offset table.
        for index in 0 ..< trailer.objectCount where objects.kind(at: index) == .dictionary {
            if let problem = DictionaryKeyRules.check(plist, dictionary: index) {
                let offset = Int(readBigEndian(at: trailer.offsetTableStart + index * trailer.offsetSize, size: trailer.offsetSize))
                throw PropertyListError(problem.code, offset: offset, problem.message)
            }
        }
        // Nothing reads the offset table and trailer again (the objects were decoded from them), and
        // the object area only where a later layer reads a string or data: a mapped input gives
        // all its pages back before the archive layers build their tables, and the layers after
        // hold only the pages they read again.
        bytes.discardResidentPages(0 ..< bytes.count)
        return plist
    }

    private func readTrailer() throws(PropertyListError) -> Trailer {
        let minimum = Self.header.count + 1 + Self.trailerSize
        guard bytes.count >= minimum else {
            throw PropertyListError(.truncated, offset: bytes.count,
                                    "a binary plist needs at least \(minimum) bytes, got \(bytes.count)")
        }
        let base = bytes.count - Self.trailerSize
        let offsetSize = Int(bytes[base + 6])
        let referenceSize = Int(bytes[base + 7])
        let objectCount = readBigEndian(at: base + 8, size: 8)
        let topObject = readBigEndian(at: base + 16, size: 8)
        let tableStart = readBigEndian(at: base + 24, size: 8)

        guard (1 ... 8).contains(offsetSize) else {
            throw PropertyListError(.invalidTrailer, offset: base + 6, "offset size \(offsetSize) is not 1…8")
        }
        guard (1 ... 8).contains(referenceSize) else {
            throw PropertyListError(.invalidTrailer, offset: base + 7, "object reference size \(referenceSize) is not 1…8")
        }
        guard objectCount >= 1, objectCount <= UInt64(Int.max) else {
            throw PropertyListError(.invalidTrailer, offset: base + 8, "object count \(objectCount) is invalid")
        }
        guard topObject < objectCount else {
            throw PropertyListError(.invalidTrailer, offset: base + 16, "top object \(topObject) is not below the object count \(objectCount)")
        }
        if referenceSize < 8, objectCount > UInt64(1) << UInt64(8 * referenceSize) {
            throw PropertyListError(.invalidTrailer, offset: base + 7,
                                    "\(referenceSize)-byte references cannot address \(objectCount) objects")
        }
        let (tableSize, sizeOverflow) = Int(objectCount).multipliedReportingOverflow(by: offsetSize)
        guard !sizeOverflow, tableStart >= UInt64(Self.header.count + 1), tableStart <= UInt64(base) else {
            throw PropertyListError(.invalidTrailer, offset: base + 24, "offset table at \(tableStart) is outside the file")
        }
        let (tableEnd, endOverflow) = Int(tableStart).addingReportingOverflow(tableSize)
        guard !endOverflow, tableEnd == base else {
            throw PropertyListError(.invalidTrailer, offset: base + 24,
                                    "offset table of \(objectCount) × \(offsetSize) bytes at \(tableStart) does not end where the trailer starts (\(base))")
        }
        // Checked after the trailer is known to be consistent: a malformed file must not read as a
        // legitimate file that merely needs a higher limit.
        guard objectCount <= UInt64(limits.maxObjects) else {
            throw PropertyListError(.objectLimitExceeded, offset: base + 8,
                                    "\(objectCount) objects; the limit is \(limits.maxObjects)")
        }
        // Object numbers are 32-bit in the tables (`references`, `PropertyListObjectTable`), whatever
        // a raised limit allows.
        guard objectCount <= UInt64(UInt32.max) else {
            throw PropertyListError(.objectLimitExceeded, offset: base + 8,
                                    "\(objectCount) objects; object numbers are limited to 32 bits")
        }
        return Trailer(offsetSize: offsetSize, referenceSize: referenceSize, objectCount: Int(objectCount),
                       topObject: Int(topObject), offsetTableStart: Int(tableStart))
    }

    /// Checks every offset-table entry (all of them, before any object is decoded, so the first
    /// error reported is always the table's), and returns the number of container references the
    /// objects claim, for reserving the reference table once. Counts that do not fit are left to
    /// the decoding pass to reject.
    private func validateOffsetTable(_ trailer: Trailer) throws(PropertyListError) -> Int {
        try bytes.withUnsafeBufferPointer { (buffer) throws(PropertyListError) -> Int in
            let reader = BinaryObjectDecoder(buffer: buffer, end: trailer.offsetTableStart,
                                       referenceSize: trailer.referenceSize, objectCount: trailer.objectCount, limits: limits)
            // One loop per common entry width, so that each entry is one load (the loop is inlined
            // with its reader).
            let base = UnsafeRawPointer(buffer.baseAddress!)
            switch trailer.offsetSize {
            case 1: return try checkOffsets(trailer, reader) { UInt64(base.load(fromByteOffset: $0, as: UInt8.self)) }
            case 2: return try checkOffsets(trailer, reader) { UInt64(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: $0, as: UInt16.self))) }
            case 4: return try checkOffsets(trailer, reader) { UInt64(UInt32(bigEndian: base.loadUnaligned(fromByteOffset: $0, as: UInt32.self))) }
            default: return try checkOffsets(trailer, reader) { reader.readBigEndian(at: $0, size: trailer.offsetSize) }
            }
        }
    }

    /// `validateOffsetTable`'s loop, reading each entry with `entry(position)`.
    @inline(__always)
    private func checkOffsets(_ trailer: Trailer, _ reader: BinaryObjectDecoder,
                              entry: (Int) -> UInt64) throws(PropertyListError) -> Int {
        var position = trailer.offsetTableStart
        var references = 0
        var trails = Trails(bytes, trailer)
        defer { trails.finish() }
        for _ in 0 ..< trailer.objectCount {
            let offset = entry(position)
            guard offset >= UInt64(Self.header.count), offset < UInt64(trailer.offsetTableStart) else {
                throw PropertyListError(.invalidOffset, offset: position,
                                        "object offset \(offset) is outside the object area 8..<\(trailer.offsetTableStart)")
            }
            references += reader.claimedReferences(at: Int(offset))
            trails.pass(entry: position, object: Int(offset))
            position += trailer.offsetSize
        }
        return references
    }

    /// The two regions a pass over the offset table reads from front to back — the table, and the
    /// object area when the objects are in order — each given back behind the pass (`ResidencyTrail`).
    private struct Trails {
        var table: ResidencyTrail
        var objects: ResidencyTrail

        init(_ bytes: ByteStorage, _ trailer: Trailer) {
            table = ResidencyTrail(bytes, over: trailer.offsetTableStart ..< bytes.count)
            objects = ResidencyTrail(bytes, over: BinaryPropertyListReader.header.count ..< trailer.offsetTableStart)
        }

        /// The pass has read offset-table entry `entry` and the object at `object`.
        @inline(__always)
        mutating func pass(entry: Int, object: Int) {
            table.pass(entry)
            objects.pass(object)
        }

        mutating func finish() {
            table.finish()
            objects.finish()
        }
    }

    /// Reads an unsigned big-endian number; callers have checked `offset + size <= bytes.count`.
    private func readBigEndian(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset ..< offset + size { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}

func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
}
