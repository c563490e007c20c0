/// A growing byte buffer that JSON is written straight into, with the output byte and node budget
/// enforced as it grows.
struct JSONOutput {
    private(set) var bytes: [UInt8] = []
    let maxBytes: Int
    let maxNodes: Int
    private(set) var nodes = 0

    init(maxBytes: Int, maxNodes: Int, capacityHint: Int) {
        self.maxBytes = maxBytes
        self.maxNodes = maxNodes
        bytes.reserveCapacity(min(capacityHint, maxBytes, 64 << 20))
    }

    /// Counts one emitted value and checks both budgets; returns why the budget is exhausted, if it is.
    @inline(__always)
    mutating func countNode() -> String? {
        nodes += 1
        if nodes > maxNodes { return "output would exceed \(maxNodes) JSON values" }
        if bytes.count > maxBytes { return "output would exceed \(maxBytes) bytes" }
        return nil
    }

    /// Checks the byte budget at the end (a final scalar may have crossed it).
    func checkFinalSize() throws(ArchiveError) {
        if bytes.count > maxBytes {
            throw ArchiveError(.outputLimitExceeded, path: "", "output would exceed \(maxBytes) bytes")
        }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always)
    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(contentsOf other: some Collection<UInt8>) { bytes.append(contentsOf: other) }

    /// Writes a quoted, escaped JSON string from validated UTF-8 (or ASCII) bytes.
    mutating func appendString(utf8 source: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0 ..< source.count {
            let byte = source[index]
            guard JSONOutput.needsEscape[Int(byte)] else { continue }
            if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart ..< index])) }
            appendEscape(byte)
            runStart = index + 1
        }
        if runStart < source.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart...])) }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func appendString(_ string: String) {
        var copy = string
        copy.withUTF8 { appendString(utf8: $0) }
    }

    /// Writes a quoted JSON string from validated UTF-16 big-endian code units.
    mutating func appendString(utf16BigEndian source: UnsafeBufferPointer<UInt8>, units: Int) {
        bytes.append(UInt8(ascii: "\""))
        var index = 0
        while index < units {
            var scalar = UInt32(source[2 * index]) << 8 | UInt32(source[2 * index + 1])
            index += 1
            if scalar & 0xFC00 == 0xD800, index < units {
                let low = UInt32(source[2 * index]) << 8 | UInt32(source[2 * index + 1])
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                index += 1
            }
            if scalar < 0x80 {
                let byte = UInt8(scalar)
                if JSONOutput.needsEscape[Int(byte)] { appendEscape(byte) } else { bytes.append(byte) }
            } else if scalar < 0x800 {
                bytes.append(UInt8(0xC0 | scalar >> 6))
                bytes.append(UInt8(0x80 | scalar & 0x3F))
            } else if scalar < 0x10000 {
                bytes.append(UInt8(0xE0 | scalar >> 12))
                bytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                bytes.append(UInt8(0x80 | scalar & 0x3F))
            } else {
                bytes.append(UInt8(0xF0 | scalar >> 18))
                bytes.append(UInt8(0x80 | scalar >> 12 & 0x3F))
                bytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                bytes.append(UInt8(0x80 | scalar & 0x3F))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            let digits: StaticString = "0123456789abcdef"
            bytes.append(UInt8(ascii: "u"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(digits.utf8Start[Int(byte >> 4)])
            bytes.append(digits.utf8Start[Int(byte & 0xF)])
        }
    }

    /// Bytes that cannot appear raw inside a JSON string.
    static let needsEscape: [Bool] = (0 ..< 256).map { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }

    /// An exact decimal integer; never goes through `Double`.
    mutating func appendInteger(_ value: Int128) {
        if value >= 0, value <= 9 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var magnitude = value.magnitude
        var digits = [UInt8]()
        digits.reserveCapacity(40)
        while magnitude > 0 {
            digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        bytes.append(contentsOf: digits.reversed())
    }

    mutating func appendInteger(_ value: Int) { appendInteger(Int128(value)) }

    /// A finite double as its shortest round-trip form; NaN and infinities as strings, since JSON has none.
    mutating func appendDouble(_ value: Double) {
        if value.isNaN { append("\"NaN\""); return }
        if value.isInfinite { append(value < 0 ? "\"-Infinity\"" : "\"Infinity\""); return }
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            appendInteger(Int128(Int64(value)))
            if value == 0, value.sign == .minus { bytes.insert(UInt8(ascii: "-"), at: bytes.count - 1) }
            return
        }
        append(contentsOf: value.description.utf8)
    }
}
