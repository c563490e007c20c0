/// The byte-level grammar of a typedstream: heads, tagged integers, floats and length-prefixed bytes.
/// Every read checks the bytes that remain and reports the offset where it stopped.
struct TypedStreamInput {
    /// Head bytes in `-128 ... -111` are tags; every other byte is a literal one-byte integer.
    static let tagRange: ClosedRange<Int8> = -128 ... -111
    static let tagInteger2: Int8 = -127     // 0x81: a 2-byte integer follows
    static let tagInteger4: Int8 = -126     // 0x82: a 4-byte integer follows
    static let tagFloatingPoint: Int8 = -125  // 0x83: a float or double follows
    static let tagNew: Int8 = -124          // 0x84: a literal string, class or object follows
    static let tagNil: Int8 = -123          // 0x85: nil / Nil / NULL
    static let tagEndOfObject: Int8 = -122  // 0x86: the end of an object's groups
    static let tagInteger8: Int8 = -121     // 0x87: an 8-byte integer follows (NSNumber `q`/`Q` on macOS 13+)
    /// Reference numbers start just above the tags, so the first 128 fit in the head byte itself.
    static let firstReferenceNumber: Int64 = -110

    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    var bigEndian = false

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        position = 0
    }

    var remaining: Int { bytes.count - position }
    var atEnd: Bool { position >= bytes.count }

    func truncated(_ what: String, at offset: Int? = nil) -> TypedStreamError {
        TypedStreamError(.truncated, offset: offset ?? position, "the stream ends inside \(what)")
    }

    /// The next byte as a signed head.
    mutating func head(_ what: @autoclosure () -> String) throws(TypedStreamError) -> Int8 {
        guard position < bytes.count else { throw truncated(what()) }
        defer { position += 1 }
        return Int8(bitPattern: bytes[position])
    }

    /// One raw byte (`c`, `C`, `B` are written untagged).
    mutating func rawByte() throws(TypedStreamError) -> UInt8 {
        guard position < bytes.count else { throw truncated("a one-byte value") }
        defer { position += 1 }
        return bytes[position]
    }

    /// `count` bytes, in byte order as written; `count` is compared with what remains before anything is allocated.
    mutating func rawBytes(_ count: Int, _ what: String) throws(TypedStreamError) -> [UInt8] {
        guard count >= 0, count <= remaining else {
            throw TypedStreamError(.truncated, offset: position, "\(what) of \(count) bytes, but only \(remaining) remain")
        }
        defer { position += count }
        return Array(bytes[position ..< position + count])
    }

    /// A fixed-width number of `width` bytes in the stream's byte order, zero-extended.
    mutating func fixedWidth(_ width: Int, _ what: String) throws(TypedStreamError) -> UInt64 {
        guard width <= remaining else { throw truncated(what) }
        var value: UInt64 = 0
        for index in 0 ..< width {
            let byte = UInt64(bytes[position + (bigEndian ? index : width - 1 - index)])
            value = value << 8 | byte
        }
        position += width
        return value
    }

    /// A tagged integer whose head byte (at `position - 1`) is `head`, as a 64-bit pattern: signed
    /// values are sign-extended, unsigned ones zero-extended.
    mutating func integer(head: Int8, signed: Bool) throws(TypedStreamError) -> UInt64 {
        guard Self.tagRange.contains(head) else {
            return signed ? UInt64(bitPattern: Int64(head)) : UInt64(UInt8(bitPattern: head))
        }
        switch head {
        case Self.tagInteger2:
            let raw = try fixedWidth(2, "a 2-byte integer")
            return signed ? UInt64(bitPattern: Int64(Int16(truncatingIfNeeded: raw))) : raw
        case Self.tagInteger4:
            let raw = try fixedWidth(4, "a 4-byte integer")
            return signed ? UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: raw))) : raw
        case Self.tagInteger8:
            return try fixedWidth(8, "an 8-byte integer")
        default:
            throw TypedStreamError(.unexpectedTag, offset: position - 1,
                                   "tag 0x\(String(UInt8(bitPattern: head), radix: 16)) where an integer belongs")
        }
    }

    /// A tagged integer read from its own head byte.
    mutating func integer(signed: Bool, _ what: String) throws(TypedStreamError) -> UInt64 {
        try integer(head: head(what), signed: signed)
    }

    /// A reference number whose head is `head`, as a zero-based index (negative when malformed).
    mutating func reference(head: Int8) throws(TypedStreamError) -> Int64 {
        let number = Int64(bitPattern: try integer(head: head, signed: true))
        return number - Self.firstReferenceNumber
    }

    /// `d`: a tagged double, or an integer written in its place.
    mutating func double() throws(TypedStreamError) -> Double {
        let first = try head("a double")
        guard first == Self.tagFloatingPoint else {
            return Double(Int64(bitPattern: try integer(head: first, signed: true)))
        }
        return Double(bitPattern: try fixedWidth(8, "a double"))
    }

    /// `f`: a tagged float, or an integer written in its place.
    mutating func float() throws(TypedStreamError) -> Float {
        let first = try head("a float")
        guard first == Self.tagFloatingPoint else {
            return Float(Int64(bitPattern: try integer(head: first, signed: true)))
        }
        return Float(bitPattern: UInt32(truncatingIfNeeded: try fixedWidth(4, "a float")))
    }

    /// An unshared string (`+`, and the body of a new shared string) after its head: nil for the nil tag.
    mutating func unsharedString(head: Int8, limit: Int) throws(TypedStreamError) -> [UInt8]? {
        if head == Self.tagNil { return nil }
        let lengthOffset = position - 1
        let length = try integer(head: head, signed: false)
        guard length <= UInt64(remaining) else {
            throw TypedStreamError(.truncated, offset: lengthOffset, "a length prefix of \(length) bytes, but only \(remaining) remain")
        }
        guard length <= UInt64(max(limit, 0)) else {
            throw TypedStreamError(.lengthLimitExceeded, offset: lengthOffset, "a string of \(length) bytes; the limit is \(limit)")
        }
        return try rawBytes(Int(length), "a string")
    }
}
