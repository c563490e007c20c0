/// A byte buffer that JSON is written straight into, with the output byte and node budget
/// enforced as it grows. Whole-document rendering keeps every byte in `bytes`; with a `sink`, the
/// renderer hands the buffer over in chunks at value boundaries (`flushIfFull`) and the budget
/// counts flushed plus buffered bytes, so the limits mean the same either way.
struct JSONOutput {
    private(set) var bytes: [UInt8] = []
    let maxBytes: Int
    let maxNodes: Int
    private(set) var nodes = 0
    /// The chunk size streamed rendering uses unless told otherwise.
    static let defaultChunkSize = 64 << 10
    /// Where full chunks go; nil for a whole document.
    private let sink: JSONChunkConsumer?
    /// The buffered size at which `flushIfFull` hands the buffer to the sink.
    private let chunkSize: Int
    /// Bytes already handed to the sink.
    private(set) var flushedCount = 0
    /// True once the sink refused a chunk: later chunks are dropped and the renderer may stop early.
    private(set) var isStopped = false

    init(maxBytes: Int, maxNodes: Int, capacityHint: Int) {
        self.maxBytes = maxBytes
        self.maxNodes = maxNodes
        self.sink = nil
        self.chunkSize = .max
        bytes.reserveCapacity(min(capacityHint, maxBytes, 64 << 20))
    }

    /// A streaming buffer: about `chunkSize` bytes are held before they go to `sink`.
    init(maxBytes: Int, maxNodes: Int, sink: JSONChunkConsumer, chunkSize: Int) {
        self.maxBytes = maxBytes
        self.maxNodes = maxNodes
        self.sink = sink
        self.chunkSize = max(1, chunkSize)
        bytes.reserveCapacity(min(self.chunkSize, 1 << 20) + 4096)
    }

    /// A renderer's output under `limits`' output budget: streamed to `sink` in chunks of about
    /// `chunkSize` bytes, or, without a sink, kept whole with `wholeCapacityHint` bytes reserved.
    init(limits: DecodeLimits, sink: JSONChunkConsumer?, chunkSize: Int, wholeCapacityHint: Int) {
        if let sink {
            self.init(maxBytes: limits.maxOutputBytes, maxNodes: limits.maxOutputNodes, sink: sink, chunkSize: chunkSize)
        } else {
            self.init(maxBytes: limits.maxOutputBytes, maxNodes: limits.maxOutputNodes, capacityHint: wholeCapacityHint)
        }
    }

    /// Every byte written so far, flushed or not: what the byte budget counts.
    var writtenCount: Int { flushedCount + bytes.count }

    /// Counts one emitted value and checks both budgets; returns why the budget is exhausted, if it is.
    @inline(__always)
    mutating func countNode() -> String? {
        nodes += 1
        if nodes > maxNodes { return "output would exceed \(maxNodes) JSON values" }
        if writtenCount > maxBytes { return "output would exceed \(maxBytes) bytes" }
        return nil
    }

    /// Checks the byte budget at the end (a final scalar may have crossed it).
    func checkFinalSize() throws(ArchiveError) {
        if writtenCount > maxBytes {
            throw ArchiveError(.outputLimitExceeded, path: "", "output would exceed \(maxBytes) bytes")
        }
    }

    /// Hands the buffer to the sink once it holds a chunk. Renderers call this only between values,
    /// never after the document's last byte, so a failure found at the end (budget, deadline) is
    /// reported before the document could look complete. Returns `isStopped`.
    @inline(__always)
    mutating func flushIfFull() -> Bool {
        if bytes.count >= chunkSize { flush() }
        return isStopped
    }

    /// Hands whatever is buffered to the sink (the caller's last step once every check has passed).
    mutating func flush() {
        guard let sink, !bytes.isEmpty else { return }
        flushedCount += bytes.count
        if !isStopped {
            isStopped = !bytes.withUnsafeBufferPointer { sink.consume($0) }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always)
    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(contentsOf other: some Collection<UInt8>) { bytes.append(contentsOf: other) }

    /// Writes a quoted, escaped JSON string from validated UTF-8 (or ASCII) bytes: the project's one
    /// escape table (`appendEscape`; documented on `JSONDocumentWriter.string`, its public face).
    /// Runs that need no escaping (nearly all text) are found eight bytes at a time and copied in
    /// one append.
    mutating func appendString(utf8 source: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        guard let base = source.baseAddress else {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        let count = source.count
        var runStart = 0
        var index = JSONOutput.safePrefixCount(base, count)
        if index == count {
            bytes.append(contentsOf: source)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        while index < count {
            if count - index >= 8 {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if !JSONOutput.wordNeedsEscape(word) {
                    index += 8
                    continue
                }
            }
            let byte = base[index]
            if JSONOutput.byteNeedsEscape(byte) {
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart)) }
                appendEscape(byte)
                runStart = index + 1
            }
            index += 1
        }
        if runStart < count { bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count - runStart)) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// How many bytes from `base` certainly need no escaping: 16 at a time, then 8, then (for
    /// a string of at least 8 bytes) its last 8 in one overlapping load; `count` when none does.
    /// A lower bound where an escape is near: the byte loop then finds it.
    @inline(__always)
    static func safePrefixCount(_ base: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var index = 0
        while count - index >= 16 {
            // Two SWAR words, not `SIMD16<UInt8>` comparisons: those compiled to a byte-at-a-time
            // loop here (appendString took 35 % of convert's CPU).
            let first = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let second = UnsafeRawPointer(base + index + 8).loadUnaligned(as: UInt64.self)
            if escapeBits(first) | escapeBits(second) != 0 { return index }
            index += 16
        }
        if count - index >= 8 {
            if wordNeedsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) { return index }
            index += 8
        }
        if index < count, count >= 8, !wordNeedsEscape(UnsafeRawPointer(base + count - 8).loadUnaligned(as: UInt64.self)) {
            return count
        }
        return index
    }

    /// Whether any of the eight bytes of `word` is a control character, `"` or `\\` (SWAR: exact
    /// for "any", which is all this answers; the byte loop then finds which).
    @inline(__always)
    static func wordNeedsEscape(_ word: UInt64) -> Bool { escapeBits(word) != 0 }

    /// Non-zero when any of the eight bytes of `word` needs escaping (`wordNeedsEscape`).
    @inline(__always)
    static func escapeBits(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote & highs
        let hasBackslash = (backslash &- ones) & ~backslash & highs
        return control | hasQuote | hasBackslash
    }

    @inline(__always)
    static func byteNeedsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
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
                if JSONOutput.byteNeedsEscape(byte) { appendEscape(byte) } else { bytes.append(byte) }
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

    /// An exact decimal integer; never goes through `Double`.
    mutating func appendInteger(_ value: Int128) {
        if let small = Int64(exactly: value) {
            appendInteger(small)
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

    /// A 64-bit integer, formatted in a stack buffer and appended at once.
    mutating func appendInteger(_ value: Int64) {
        if value >= 0, value <= 9 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var magnitude = value.magnitude
            var position = 20
            while magnitude > 0 {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position ..< 20]))
        }
    }

    mutating func appendInteger(_ value: Int) { appendInteger(Int64(value)) }

    /// A finite double as its shortest round-trip form; NaN and infinities as strings, since JSON has none.
    mutating func appendDouble(_ value: Double) {
        if value.isNaN { append("\"NaN\""); return }
        if value.isInfinite { append(value < 0 ? "\"-Infinity\"" : "\"Infinity\""); return }
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            appendInteger(Int64(value))
            if value == 0, value.sign == .minus { bytes.insert(UInt8(ascii: "-"), at: bytes.count - 1) }
            return
        }
        append(contentsOf: value.description.utf8)
    }
}
