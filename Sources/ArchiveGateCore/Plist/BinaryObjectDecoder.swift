/// Decodes single objects inside the validated object area `0 ..< end`.
///
/// Reads go through the raw buffer without per-byte checks: every read is covered by a `require`
/// (or, for the offset table, by the trailer validation) before it happens.
struct BinaryObjectDecoder {
    let buffer: UnsafeBufferPointer<UInt8>
    let end: Int
    let referenceSize: Int
    let objectCount: Int
    let limits: PropertyListLimits

    static var representableDates: Range<Double> { PropertyList.representableDates }

    func decode(at offset: Int, references: inout ReferenceSink) throws(PropertyListError) -> PropertyListObject {
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

    /// Writes a container's `count` references (a dictionary's `count` keys, then `count` values,
    /// stored as pairs side by side) into `references`, each checked against the object count; the
    /// range was checked by the caller. They are read at the file's reference width and written
    /// through one pointer (not an `append` per reference). A bad reference fails with its own
    /// position, the first in stored order (a dictionary's key before its value), as one read at a
    /// time would; nothing is committed then.
    private func appendReferences(from start: Int, count: Int, isDictionary: Bool,
                                  to references: inout ReferenceSink) throws(PropertyListError) {
        let entries = isDictionary ? 2 * count : count
        guard entries > 0 else { return }
        let slots = references.room(for: entries)
        let failure: Int?
        switch referenceSize {
        case 1: failure = readReferences(UInt8.self, from: start, count: count, isDictionary: isDictionary, into: slots)
        case 2: failure = readReferences(UInt16.self, from: start, count: count, isDictionary: isDictionary, into: slots)
        case 4: failure = readReferences(UInt32.self, from: start, count: count, isDictionary: isDictionary, into: slots)
        default: failure = readReferences(from: start, count: count, isDictionary: isDictionary, into: slots)
        }
        if let failure {
            throw PropertyListError(.invalidObjectReference, offset: failure,
                                    "reference to object \(readBigEndian(at: failure, size: referenceSize)), but there are \(objectCount)")
        }
        references.commit(entries)
    }

    /// Reads the references of a container of `count` elements or pairs, of `Width`'s size, into
    /// `slots`; returns the position of the first one past the objects, if any.
    @inline(__always)
    private func readReferences<Width: FixedWidthInteger & UnsignedInteger>(
        _: Width.Type, from start: Int, count: Int, isDictionary: Bool, into slots: UnsafeMutablePointer<UInt32>
    ) -> Int? {
        let source = UnsafeRawPointer(buffer.baseAddress!) + start
        let size = MemoryLayout<Width>.size
        let limit = UInt64(objectCount)
        if isDictionary {
            for pair in 0 ..< count {
                let key = UInt64(Width(bigEndian: source.loadUnaligned(fromByteOffset: pair * size, as: Width.self)))
                guard key < limit else { return start + pair * size }
                let value = UInt64(Width(bigEndian: source.loadUnaligned(fromByteOffset: (count + pair) * size, as: Width.self)))
                guard value < limit else { return start + (count + pair) * size }
                slots[2 * pair] = UInt32(truncatingIfNeeded: key)
                slots[2 * pair + 1] = UInt32(truncatingIfNeeded: value)
            }
        } else {
            for element in 0 ..< count {
                let value = UInt64(Width(bigEndian: source.loadUnaligned(fromByteOffset: element * size, as: Width.self)))
                guard value < limit else { return start + element * size }
                slots[element] = UInt32(truncatingIfNeeded: value)
            }
        }
        return nil
    }

    /// `readReferences` for the other widths (3, 5…8 bytes).
    private func readReferences(from start: Int, count: Int, isDictionary: Bool, into slots: UnsafeMutablePointer<UInt32>) -> Int? {
        let entries = isDictionary ? 2 * count : count
        for entry in 0 ..< entries {
            // Stored entry `entry`: pair `entry / 2`'s key or value (dictionaries), or element `entry`.
            let position = start + (isDictionary ? (entry & 1) * count + entry >> 1 : entry) * referenceSize
            let reference = readBigEndian(at: position, size: referenceSize)
            guard reference < UInt64(objectCount) else { return position }
            slots[entry] = UInt32(truncatingIfNeeded: reference)
        }
        return nil
    }

    @inline(__always)
    private func checkStringSize(_ byteCount: Int, at offset: Int) throws(PropertyListError) {
        guard byteCount <= limits.maxStringBytes else { throw stringTooLarge(byteCount, at: offset) }
    }

    @inline(never)
    private func stringTooLarge(_ byteCount: Int, at offset: Int) -> PropertyListError {
        PropertyListError(.stringTooLarge, offset: offset, "string of \(byteCount) bytes; the limit is \(limits.maxStringBytes)")
    }

    /// Fails unless `count` bytes from `start` lie inside the object area (inlined: once or twice
    /// per object; the error is built out of line).
    @inline(__always)
    private func require(_ start: Int, _ count: Int, at offset: Int) throws(PropertyListError) {
        let (stop, overflow) = start.addingReportingOverflow(count)
        guard !overflow, count >= 0, stop <= end else { throw truncated(start, count, at: offset) }
    }

    @inline(never)
    private func truncated(_ start: Int, _ count: Int, at offset: Int) -> PropertyListError {
        PropertyListError(.truncated, offset: offset, "object needs \(count) bytes from \(start), past the object area end \(end)")
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
    /// objects and for counts that do not fit the object area. (Inlined: once per object.)
    @inline(__always)
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
