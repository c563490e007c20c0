/// The `bplist00` encodings of single objects, shared by the writer and `RawBuilder`.
extension BinaryPropertyListWriter {
    /// High-nibble type markers (and the three whole-byte singletons) of `bplist00`.
    public enum Marker {
        public static let null: UInt8 = 0x00
        public static let `false`: UInt8 = 0x08
        public static let `true`: UInt8 = 0x09
        public static let integer: UInt8 = 0x10
        public static let real: UInt8 = 0x20
        public static let date: UInt8 = 0x33
        public static let data: UInt8 = 0x40
        public static let asciiString: UInt8 = 0x50
        public static let utf16String: UInt8 = 0x60
        public static let uid: UInt8 = 0x80
        public static let array: UInt8 = 0xA0
        public static let set: UInt8 = 0xC0
        public static let dictionary: UInt8 = 0xD0
    }

    /// Appends a non-container value exactly as Apple encodes it.
    static func appendScalar(_ value: PropertyListValue, to output: inout [UInt8]) {
        switch value {
        case .string(var string):
            let isASCII = string.withUTF8 { bytes in
                if bytes.allSatisfy({ $0 < 0x80 }) {
                    appendHeader(Marker.asciiString, count: UInt64(bytes.count), to: &output)
                    output.append(contentsOf: bytes)
                    return true
                }
                return false
            }
            if !isASCII {
                appendHeader(Marker.utf16String, count: UInt64(string.utf16.count), to: &output)
                for unit in string.utf16 {
                    output.append(UInt8(truncatingIfNeeded: unit >> 8))
                    output.append(UInt8(truncatingIfNeeded: unit))
                }
            }
        case .integer(let integer):
            appendInteger(integer, to: &output)
        case .real(let real):
            output.append(Marker.real | 3)
            appendBigEndian(real.bitPattern, size: 8, to: &output)
        case .bool(let bool):
            output.append(bool ? Marker.true : Marker.false)
        case .date(let date):
            output.append(Marker.date)
            appendBigEndian(date.bitPattern, size: 8, to: &output)
        case .data(let bytes):
            appendHeader(Marker.data, count: UInt64(bytes.count), to: &output)
            output.append(contentsOf: bytes)
        case .uid(let uid):
            let size = uid <= 0xFF ? 1 : (uid <= 0xFFFF ? 2 : 4)
            output.append(Marker.uid | UInt8(size - 1))
            appendBigEndian(UInt64(uid), size: size, to: &output)
        case .null:
            output.append(Marker.null)
        case .array, .set, .dictionary:
            preconditionFailure("containers are written from the object table")
        }
    }

    /// Appends an integer object: 1, 2 or 4 unsigned bytes for `0 ... UInt32.max`, 8 two's
    /// complement bytes for the rest of the `Int64` range, 16 bytes beyond it.
    static func appendInteger(_ value: Int128, to output: inout [UInt8]) {
        if value >= 0, value <= Int128(UInt32.max) {
            appendUnsigned(UInt64(value), to: &output)
        } else if value >= Int128(Int64.min), value <= Int128(Int64.max) {
            output.append(Marker.integer | 3)
            appendBigEndian(UInt64(bitPattern: Int64(value)), size: 8, to: &output)
        } else {
            output.append(Marker.integer | 4)
            appendBigEndian(UInt64(truncatingIfNeeded: value >> 64), size: 8, to: &output)
            appendBigEndian(UInt64(truncatingIfNeeded: value), size: 8, to: &output)
        }
    }

    /// Appends an unsigned integer object in 1, 2, 4 or 8 bytes (CoreFoundation's `_appendInt`);
    /// above `Int64.max` the 8 bytes read back as negative, which is what Apple writes for counts.
    static func appendUnsigned(_ value: UInt64, to output: inout [UInt8]) {
        let size = byteCount(value)
        output.append(Marker.integer | UInt8(size.trailingZeroBitCount))
        appendBigEndian(value, size: size, to: &output)
    }

    /// Appends a marker with its count: in the low nibble below 15, else nibble 0xF and an integer.
    static func appendHeader(_ type: UInt8, count: UInt64, to output: inout [UInt8]) {
        if count < 15 {
            output.append(type | UInt8(count))
        } else {
            output.append(type | 0x0F)
            appendUnsigned(count, to: &output)
        }
    }

    /// Appends the low `size` (0…8) bytes of `value`, most significant first; higher bytes are dropped.
    static func appendBigEndian(_ value: UInt64, size: Int, to output: inout [UInt8]) {
        for shift in stride(from: 8 * (size - 1), through: 0, by: -8) {
            output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// The 32-byte trailer: 5 unused bytes, sort version 0, the two sizes, then three 8-byte numbers.
    static func appendTrailer(offsetSize: UInt8, referenceSize: UInt8, objectCount: UInt64, topObject: UInt64,
                              offsetTableOffset: UInt64, sortVersion: UInt8 = 0, to output: inout [UInt8]) {
        output.append(contentsOf: [0, 0, 0, 0, 0, sortVersion, offsetSize, referenceSize])
        appendBigEndian(objectCount, size: 8, to: &output)
        appendBigEndian(topObject, size: 8, to: &output)
        appendBigEndian(offsetTableOffset, size: 8, to: &output)
    }

    /// The smallest of 1, 2, 4 or 8 bytes that holds `value` (CoreFoundation's `_byteCount`).
    static func byteCount(_ value: UInt64) -> Int {
        switch value {
        case 0 ... 0xFF: 1
        case 0x100 ... 0xFFFF: 2
        case 0x1_0000 ... 0xFFFF_FFFF: 4
        default: 8
        }
    }

    /// About the bytes `appendScalar` writes for `value` (exact for ASCII strings and data).
    static func estimatedSize(of value: PropertyListValue) -> Int {
        switch value {
        case .string(let string): 10 + string.utf8.count
        case .data(let bytes): 10 + bytes.count
        default: 17
        }
    }
}
