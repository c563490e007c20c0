/// Which bytes of a binary plist's object area the objects account for.
///
/// Objects are normally written back to back in object-number order from byte 8 to the offset
/// table, which the decoding pass checks as it goes, with no allocation. Any other layout (objects out of order, shared
/// offsets) is checked by sorting the offsets: 8 bytes per object, only for such files.
extension BinaryPropertyListReader {
    /// The in-order check, run by the decoding pass as each object is decoded (its marker is then
    /// in cache): while every object starts where the previous one ended, `inOrderEnd` is where
    /// the last one ends. The first object that does not breaks the run, and `firstUncoveredByte`
    /// then sorts the offsets after decoding (the same answer its own in-order pass would give).
    struct CoverageCursor {
        private var covered = BinaryPropertyListReader.header.count
        private var inOrder = true

        /// The end of the objects written back to back from byte 8, or nil when they are not.
        var inOrderEnd: Int? { inOrder ? covered : nil }

        /// Notes the object just decoded at `offset` (so its marker and length were checked).
        @inline(__always)
        mutating func note(_ buffer: UnsafeBufferPointer<UInt8>, decodedAt offset: Int, referenceSize: Int) {
            guard inOrder else { return }
            guard offset == covered else {
                inOrder = false
                return
            }
            covered = BinaryPropertyListReader.encodedEnd(buffer, at: offset, referenceSize: referenceSize)
        }
    }

    /// The first byte in `8 ..< tableStart` that no object's encoding covers, or nil. Runs after
    /// every object decoded, so each marker and length read here was already checked.
    static func firstUncoveredByte(_ buffer: UnsafeBufferPointer<UInt8>, tableStart: Int, offsetSize: Int,
                                   objectCount: Int, referenceSize: Int) -> Int? {
        func offset(_ index: Int) -> Int {
            var value = 0
            for position in tableStart + index * offsetSize ..< tableStart + (index + 1) * offsetSize {
                value = value << 8 | Int(buffer[position])
            }
            return value
        }
        var covered = header.count
        var inOrder = true
        for index in 0 ..< objectCount {
            let start = offset(index)
            guard start == covered else { inOrder = false; break }
            covered = encodedEnd(buffer, at: start, referenceSize: referenceSize)
        }
        if inOrder { return covered == tableStart ? nil : covered }
        var starts = (0 ..< objectCount).map(offset)
        starts.sort()
        covered = header.count
        for start in starts {
            if start > covered { return covered }
            covered = max(covered, encodedEnd(buffer, at: start, referenceSize: referenceSize))
        }
        return covered >= tableStart ? nil : covered
    }

    /// Where the object encoded at `offset` ends (exclusive), from its marker and length; the
    /// object was decoded (`BinaryObjectDecoder`), so its marker is defined and its bytes in range.
    static func encodedEnd(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int, referenceSize: Int) -> Int {
        let marker = buffer[offset]
        let high = marker >> 4, low = Int(marker & 0x0F)
        switch high {
        case 0x0: return offset + 1
        case 0x1, 0x2: return offset + 1 + (1 << low)
        case 0x3: return offset + 9
        case 0x8: return offset + 2 + low
        default:
            var count = low, start = offset + 1
            if low == 0xF {
                let size = 1 << Int(buffer[offset + 1] & 0x0F)
                count = 0
                for position in offset + 2 ..< offset + 2 + size { count = count << 8 | Int(buffer[position]) }
                start = offset + 2 + size
            }
            switch high {
            case 0x6: return start + 2 * count
            case 0xA, 0xC: return start + count * referenceSize
            case 0xD: return start + 2 * count * referenceSize
            default: return start + count  // 0x4 data, 0x5 ASCII string
            }
        }
    }
}
