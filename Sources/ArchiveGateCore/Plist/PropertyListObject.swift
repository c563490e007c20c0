/// One object of a property list in the flat table: a kind and two 64-bit payload words.
///
/// Containers do not hold their children; they hold a range of `PropertyList.references`, so a
/// property list is a flat table that can be walked without recursion and cannot be cyclic by shape.
public struct PropertyListObject: Hashable, Sendable {
    /// What the object is, and so what its payload words mean.
    ///
    /// The raw values are implicit (0, 1, … in declaration order) and must stay so:
    /// `PropertyListObjectTable` stores the raw value and reads it back as the case by a bit cast.
    public enum Kind: UInt8, Sendable {
        /// The binary `null` marker (0x00). Payload unused.
        case null
        /// `first` is 0 or 1.
        case bool
        /// `first` is the low 64 bits, `second` the high 64 bits of a signed 128-bit value.
        case integer
        /// `first` is the `Double` bit pattern.
        case real
        /// `first` is the `Double` bit pattern of seconds since 2001-01-01T00:00:00Z.
        case date
        /// `first` is the offset in `PropertyList.bytes`, `second` the byte count.
        case data
        /// 7-bit ASCII; `first` is the offset in `PropertyList.bytes`, `second` the byte count.
        case asciiString
        /// Validated UTF-8 (XML input); `first` is the offset, `second` the byte count.
        case utf8String
        /// Validated UTF-16 big-endian; `first` is the offset, `second` the number of code units.
        case utf16String
        /// A keyed-archive UID; `first` is its value (at most 2^32 - 1).
        case uid
        /// `first` is the start in `PropertyList.references`, `second` the element count.
        case array
        /// As `array`.
        case set
        /// `first` is the start in `PropertyList.references`, `second` the number of pairs; the
        /// references hold key, value, key, value, ….
        case dictionary
    }

    public var kind: Kind
    public var first: UInt64
    public var second: UInt64

    @inlinable
    public init(kind: Kind, first: UInt64 = 0, second: UInt64 = 0) {
        self.kind = kind
        self.first = first
        self.second = second
    }

    /// True for the three string encodings.
    @inlinable
    public var isString: Bool {
        kind == .asciiString || kind == .utf8String || kind == .utf16String
    }

    /// True for arrays, sets and dictionaries.
    @inlinable
    public var isContainer: Bool {
        kind == .array || kind == .set || kind == .dictionary
    }
}
