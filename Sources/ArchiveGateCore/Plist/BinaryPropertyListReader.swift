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
        var references = [UInt32]()
        // Exact for well-formed files (no regrowth, no slack); never more than the object area
        // could hold, whatever the counts claim.
        references.reserveCapacity(min(referenceEstimate, trailer.offsetTableStart / trailer.referenceSize))

        let objects = try bytes.withUnsafeBufferPointer { (buffer) throws(PropertyListError) in
            let cursor = ObjectDecoder(buffer: buffer, end: trailer.offsetTableStart,
                                       referenceSize: trailer.referenceSize,
                                       objectCount: trailer.objectCount, limits: limits)
            // The table was validated above; each entry is read again here rather than kept in an array.
            return try PropertyListObjectTable.filled(count: trailer.objectCount) { (index) throws(PropertyListError) in
                let offset = Int(cursor.readBigEndian(at: trailer.offsetTableStart + index * trailer.offsetSize, size: trailer.offsetSize))
                return try cursor.decode(at: offset, references: &references)
            }
        }
        let plist = PropertyList(format: .binary, objects: objects, references: references, bytes: bytes,
                                 root: trailer.topObject)
        // Dictionaries in object order, found by their kind byte (a list of them would be 16 B per
        // dictionary at the reader's peak); an error's offset is read back from the offset table.
        for index in 0 ..< trailer.objectCount where objects.kind(at: index) == .dictionary {
            if let problem = DictionaryKeyRules.check(plist, dictionary: index) {
                let offset = Int(readBigEndian(at: trailer.offsetTableStart + index * trailer.offsetSize, size: trailer.offsetSize))
                throw PropertyListError(problem.code, offset: offset, problem.message)
            }
        }
        // Nothing reads the offset table and trailer again (the objects were decoded from them):
        // a mapped input gives those pages back before the archive layers build their tables.
        bytes.discardResidentPages(trailer.offsetTableStart ..< bytes.count)
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
            let reader = ObjectDecoder(buffer: buffer, end: trailer.offsetTableStart,
                                       referenceSize: trailer.referenceSize, objectCount: trailer.objectCount, limits: limits)
            var position = trailer.offsetTableStart
            var references = 0
            for _ in 0 ..< trailer.objectCount {
                let offset = reader.readBigEndian(at: position, size: trailer.offsetSize)
                guard offset >= UInt64(Self.header.count), offset < UInt64(trailer.offsetTableStart) else {
                    throw PropertyListError(.invalidOffset, offset: position,
                                            "object offset \(offset) is outside the object area 8..<\(trailer.offsetTableStart)")
                }
                position += trailer.offsetSize
                references += reader.claimedReferences(at: Int(offset))
            }
            return references
        }
    }

    /// Reads an unsigned big-endian number; callers have checked `offset + size <= bytes.count`.
    private func readBigEndian(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset ..< offset + size { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}

/// Decodes single objects inside the validated object area `0 ..< end`.
///
/// Reads go through the raw buffer without per-byte checks: every read is covered by a `require`
/// (or, for the offset table, by the trailer validation) before it happens.
private struct ObjectDecoder {
    let buffer: UnsafeBufferPointer<UInt8>
    let end: Int
    let referenceSize: Int
    let objectCount: Int
    let limits: PropertyListLimits

    static var representableDates: Range<Double> { PropertyList.representableDates }

    func decode(at offset: Int, references: inout [UInt32]) throws(PropertyListError) -> PropertyListObject {
        let marker = buffer[offset]
        let high = marker >> 4
        let low = marker & 0x0F
        switch high {
        case 0x0:
            switch low {
            case 0x0: return PropertyListObject(kind: .null)
            case 0x8: return PropertyListObject(kind: .bool, first: 0)
            case 0x9: return PropertyListObject(kind: .bool, first: 1)
            default:
                throw PropertyListError(.invalidMarker, offset: offset, "marker 0x\(hex(marker)) is not defined")
            }
        case 0x1:
            return try readInteger(at: offset)
        case 0x2:
            guard low == 2 || low == 3 else {
                throw PropertyListError(.invalidReal, offset: offset, "real of 2^\(low) bytes is not supported")
            }
            let size = 1 << Int(low)
            try require(offset + 1, size, at: offset)
            let raw = readBigEndian(at: offset + 1, size: size)
            let value = size == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw)
            return PropertyListObject(kind: .real, first: value.bitPattern)
        case 0x3:
            guard low == 3 else { throw PropertyListError(.invalidMarker, offset: offset, "date marker 0x\(hex(marker)) must be 0x33") }
            try require(offset + 1, 8, at: offset)
            let value = Double(bitPattern: readBigEndian(at: offset + 1, size: 8))
            guard value.isFinite else { throw PropertyListError(.invalidDate, offset: offset, "date is not finite") }
            guard Self.representableDates.contains(value) else {
                throw PropertyListError(.invalidDate, offset: offset, "date \(value) s from 2001 is outside the years 0001…9999 that ISO 8601 JSON carries")
            }
            return PropertyListObject(kind: .date, first: value.bitPattern)
        case 0x4:
            let (count, start) = try readCount(at: offset, low: low)
            guard count <= limits.maxDataBytes else {
                throw PropertyListError(.dataTooLarge, offset: offset, "data of \(count) bytes; the limit is \(limits.maxDataBytes)")
            }
            try require(start, count, at: offset)
            return PropertyListObject(kind: .data, first: UInt64(start), second: UInt64(count))
        case 0x5:
            let (count, start) = try readCount(at: offset, low: low)
            try checkStringSize(count, at: offset)
            try require(start, count, at: offset)
            if let index = firstNonASCII(start: start, count: count) {
                throw PropertyListError(.invalidString, offset: index, "ASCII string has byte 0x\(hex(buffer[index]))")
            }
            return PropertyListObject(kind: .asciiString, first: UInt64(start), second: UInt64(count))
        case 0x6:
            let (count, start) = try readCount(at: offset, low: low)
            let (byteCount, overflow) = count.multipliedReportingOverflow(by: 2)
            guard !overflow else { throw PropertyListError(.invalidLength, offset: offset, "UTF-16 length overflows") }
            try checkStringSize(byteCount, at: offset)
            try require(start, byteCount, at: offset)
            try validateUTF16(start: start, units: count)
            return PropertyListObject(kind: .utf16String, first: UInt64(start), second: UInt64(count))
        case 0x8:
            let size = Int(low) + 1
            guard size <= 4 else {
                throw PropertyListError(.invalidUID, offset: offset, "UID of \(size) bytes; at most 4 are allowed")
            }
            try require(offset + 1, size, at: offset)
            return PropertyListObject(kind: .uid, first: readBigEndian(at: offset + 1, size: size))
        case 0xA, 0xC, 0xD:
            let (count, start) = try readCount(at: offset, low: low)
            let perEntry = high == 0xD ? 2 * referenceSize : referenceSize
            let (byteCount, overflow) = count.multipliedReportingOverflow(by: perEntry)
            guard !overflow else { throw PropertyListError(.invalidLength, offset: offset, "container size overflows") }
            try require(start, byteCount, at: offset)
            let referenceStart = references.count
            let entries = high == 0xD ? 2 * count : count
            guard referenceStart + entries <= Int(UInt32.max) else {
                throw PropertyListError(.objectLimitExceeded, offset: offset, "too many container references")
            }
            try appendReferences(from: start, count: count, isDictionary: high == 0xD, to: &references)
            let kind: PropertyListObject.Kind = high == 0xA ? .array : (high == 0xC ? .set : .dictionary)
            return PropertyListObject(kind: kind, first: UInt64(referenceStart), second: UInt64(count))
        default:
            throw PropertyListError(.invalidMarker, offset: offset, "marker 0x\(hex(marker)) is not defined for bplist00")
        }
    }

    private func readInteger(at offset: Int) throws(PropertyListError) -> PropertyListObject {
        let low = buffer[offset] & 0x0F
        guard low <= 4 else {
            throw PropertyListError(.invalidInteger, offset: offset, "integer of 2^\(low) bytes is not supported")
        }
        let size = 1 << Int(low)
        try require(offset + 1, size, at: offset)
        switch size {
        case 16:
            let high = readBigEndian(at: offset + 1, size: 8)
            let lowWord = readBigEndian(at: offset + 9, size: 8)
            return PropertyListObject(kind: .integer, first: lowWord, second: high)
        case 8:
            let value = readBigEndian(at: offset + 1, size: 8)
            return PropertyListObject(kind: .integer, first: value, second: Int64(bitPattern: value) < 0 ? UInt64.max : 0)
        default:
            return PropertyListObject(kind: .integer, first: readBigEndian(at: offset + 1, size: size), second: 0)
        }
    }

    /// Reads the element count of a data, string or container marker: the low nibble, or a
    /// following integer object when the nibble is 0xF. Returns the count and where content starts.
    private func readCount(at offset: Int, low: UInt8) throws(PropertyListError) -> (count: Int, start: Int) {
        if low != 0xF { return (Int(low), offset + 1) }
        try require(offset + 1, 1, at: offset)
        let intMarker = buffer[offset + 1]
        guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else {
            throw PropertyListError(.invalidLength, offset: offset + 1, "length marker 0x\(hex(intMarker)) is not an integer of 1…8 bytes")
        }
        let size = 1 << Int(intMarker & 0x0F)
        try require(offset + 2, size, at: offset)
        let count = readBigEndian(at: offset + 2, size: size)
        guard count <= UInt64(end) else {
            throw PropertyListError(.invalidLength, offset: offset, "count \(count) exceeds the \(end)-byte object area")
        }
        return (Int(count), offset + 2 + size)
    }

    /// Appends a container's `count` references (a dictionary's `count` keys, then `count` values,
    /// stored as pairs side by side), each checked against the object count; the range was checked
    /// by the caller. The array grows once per container and is filled through one pointer (not an
    /// `append` per reference, each with its own uniqueness and capacity check); the reads are
    /// specialised for the file's reference width. A bad reference fails with its own position,
    /// in the order the references are stored (a dictionary's key before its value).
    private func appendReferences(from start: Int, count: Int, isDictionary: Bool,
                                  to references: inout [UInt32]) throws(PropertyListError) {
        let entries = isDictionary ? 2 * count : count
        guard entries > 0 else { return }
        let first = references.count
        references.append(contentsOf: repeatElement(0, count: entries))
        try references.withUnsafeMutableBufferPointer { (stored) throws(PropertyListError) in
            let target = stored.baseAddress! + first
            switch referenceSize {
            case 1: try readReferences(UInt8.self, from: start, count: count, isDictionary: isDictionary, into: target)
            case 2: try readReferences(UInt16.self, from: start, count: count, isDictionary: isDictionary, into: target)
            case 4: try readReferences(UInt32.self, from: start, count: count, isDictionary: isDictionary, into: target)
            default:
                for entry in 0 ..< entries {
                    // Pair `entry / 2`'s key or value (dictionaries), or element `entry`.
                    let slot = isDictionary ? (entry & 1) * count + entry >> 1 : entry
                    target[entry] = try reference(at: start + slot * referenceSize, value: readBigEndian(at: start + slot * referenceSize, size: referenceSize))
                }
            }
        }
    }

    /// `appendReferences` for references of `Width`'s size.
    @inline(__always)
    private func readReferences<Width: FixedWidthInteger & UnsignedInteger>(
        _: Width.Type, from start: Int, count: Int, isDictionary: Bool, into target: UnsafeMutablePointer<UInt32>
    ) throws(PropertyListError) {
        let source = UnsafeRawPointer(buffer.baseAddress!) + start
        let size = MemoryLayout<Width>.size
        if isDictionary {
            for pair in 0 ..< count {
                let key = UInt64(Width(bigEndian: source.loadUnaligned(fromByteOffset: pair * size, as: Width.self)))
                target[2 * pair] = try reference(at: start + pair * size, value: key)
                let value = UInt64(Width(bigEndian: source.loadUnaligned(fromByteOffset: (count + pair) * size, as: Width.self)))
                target[2 * pair + 1] = try reference(at: start + (count + pair) * size, value: value)
            }
        } else {
            for element in 0 ..< count {
                let value = UInt64(Width(bigEndian: source.loadUnaligned(fromByteOffset: element * size, as: Width.self)))
                target[element] = try reference(at: start + element * size, value: value)
            }
        }
    }

    /// `value`, read at `position`, as an object number, or the error for a reference past the objects.
    @inline(__always)
    private func reference(at position: Int, value: UInt64) throws(PropertyListError) -> UInt32 {
        guard value < UInt64(objectCount) else { throw invalidReference(at: position, value) }
        return UInt32(truncatingIfNeeded: value)
    }

    @inline(never)
    private func invalidReference(at position: Int, _ reference: UInt64) -> PropertyListError {
        PropertyListError(.invalidObjectReference, offset: position, "reference to object \(reference), but there are \(objectCount)")
    }

    private func checkStringSize(_ byteCount: Int, at offset: Int) throws(PropertyListError) {
        guard byteCount <= limits.maxStringBytes else {
            throw PropertyListError(.stringTooLarge, offset: offset,
                                    "string of \(byteCount) bytes; the limit is \(limits.maxStringBytes)")
        }
    }

    /// Fails unless `count` bytes from `start` lie inside the object area.
    private func require(_ start: Int, _ count: Int, at offset: Int) throws(PropertyListError) {
        let (stop, overflow) = start.addingReportingOverflow(count)
        guard !overflow, count >= 0, stop <= end else {
            throw PropertyListError(.truncated, offset: offset, "object needs \(count) bytes from \(start), past the object area end \(end)")
        }
    }

    private func validateUTF16(start: Int, units: Int) throws(PropertyListError) {
        var index = 0
        while index < units {
            let position = start + 2 * index
            let unit = UInt16(buffer[position]) << 8 | UInt16(buffer[position + 1])
            if unit & 0xFC00 == 0xD800 {
                let next = index + 1 < units
                    ? UInt16(buffer[position + 2]) << 8 | UInt16(buffer[position + 3]) : 0
                guard next & 0xFC00 == 0xDC00 else {
                    throw PropertyListError(.invalidString, offset: position, "UTF-16 high surrogate without a low surrogate")
                }
                index += 2
            } else if unit & 0xFC00 == 0xDC00 {
                throw PropertyListError(.invalidString, offset: position, "UTF-16 low surrogate without a high surrogate")
            } else {
                index += 1
            }
        }
    }

    /// Reads an unsigned big-endian number of `size` (1…8) bytes; callers have checked the range.
    @inline(__always)
    func readBigEndian(at offset: Int, size: Int) -> UInt64 {
        let base = UnsafeRawPointer(buffer.baseAddress!) + offset
        switch size {
        case 1: return UInt64(base.load(as: UInt8.self))
        case 2: return UInt64(UInt16(bigEndian: base.loadUnaligned(as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: base.loadUnaligned(as: UInt32.self)))
        case 8: return UInt64(bigEndian: base.loadUnaligned(as: UInt64.self))
        default:
            var value: UInt64 = 0
            for index in offset ..< offset + size { value = value << 8 | UInt64(buffer[index]) }
            return value
        }
    }

    /// The references a container at `offset` (inside the object area) claims, or 0 for other
    /// objects and for counts that do not fit the object area.
    func claimedReferences(at offset: Int) -> Int {
        let marker = buffer[offset]
        let high = marker >> 4
        guard high == 0xA || high == 0xC || high == 0xD else { return 0 }
        var count = Int(marker & 0x0F)
        var start = offset + 1
        if count == 0xF {
            guard offset + 2 <= end else { return 0 }
            let intMarker = buffer[offset + 1]
            guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else { return 0 }
            let size = 1 << Int(intMarker & 0x0F)
            guard offset + 2 + size <= end else { return 0 }
            let claimed = readBigEndian(at: offset + 2, size: size)
            guard claimed <= UInt64(end) else { return 0 }
            count = Int(claimed)
            start = offset + 2 + size
        }
        let entries = high == 0xD ? 2 * count : count
        guard entries <= (end - start) / referenceSize else { return 0 }
        return entries
    }

    /// The position of the first byte ≥ 0x80 in `start ..< start + count` (checked by the caller),
    /// scanning eight bytes at a time.
    private func firstNonASCII(start: Int, count: Int) -> Int? {
        let base = buffer.baseAddress!
        var index = start
        let stop = start + count
        while stop - index >= 8 {
            if UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
            index += 8
        }
        while index < stop {
            if base[index] >= 0x80 { return index }
            index += 1
        }
        return nil
    }
}

func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
}
