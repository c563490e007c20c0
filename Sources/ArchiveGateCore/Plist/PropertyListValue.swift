/// A property-list tree for *building* property lists: what `BinaryPropertyListWriter` writes.
///
/// Reading goes the other way, into the flat, index-based `PropertyList`; this type is for tests,
/// benchmarks and the `encode` command, which start from values they already trust. Dictionaries
/// keep their entries in the order given, so the bytes written are predictable.
///
/// Equality is structural: `.integer(1)` and `.real(1)` differ, and strings compare as Swift
/// strings (canonically equivalent spellings are equal). The writer itself never merges two
/// strings whose code units differ.
public indirect enum PropertyListValue: Hashable, Sendable {
    /// One key–value pair of a dictionary.
    public struct Entry: Hashable, Sendable {
        public var key: String
        public var value: PropertyListValue

        public init(key: String, value: PropertyListValue) {
            self.key = key
            self.value = value
        }
    }

    /// Written as ASCII (marker 0x5) when every scalar is below U+0080, else as UTF-16BE (0x6).
    case string(String)
    /// Written in the narrowest form Apple uses: 1, 2 or 4 unsigned bytes up to 2^32 - 1, 8 signed
    /// bytes for the rest of the 64-bit signed range, and 16 bytes beyond it.
    case integer(Int128)
    /// Written as an 8-byte double (0x23).
    case real(Double)
    case bool(Bool)
    /// Seconds since 2001-01-01T00:00:00Z, written as an 8-byte double (0x33).
    case date(Double)
    case data([UInt8])
    /// A keyed-archive object reference, written in 1, 2 or 4 bytes.
    case uid(UInt32)
    case array([PropertyListValue])
    case set([PropertyListValue])
    /// Entries in order; keys are not checked for duplicates (tests need them).
    case dictionary([Entry])
    /// The binary `null` marker (0x00). Apple's readers reject it in `bplist00`.
    case null

    /// A dictionary from a literal, keeping the literal's order: `.dictionary(["a": 1, "b": "x"])`.
    public static func dictionary(_ pairs: KeyValuePairs<String, PropertyListValue>) -> PropertyListValue {
        .dictionary(pairs.map { Entry(key: $0.key, value: $0.value) })
    }

    /// A dictionary from `(key, value)` pairs built at run time, keeping their order.
    public static func dictionary(pairs: some Sequence<(String, PropertyListValue)>) -> PropertyListValue {
        .dictionary(pairs.map { Entry(key: $0.0, value: $0.1) })
    }

    /// True for arrays, sets and dictionaries.
    public var isContainer: Bool {
        switch self {
        case .array, .set, .dictionary: true
        default: false
        }
    }
}

extension PropertyListValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyListValue: ExpressibleByIntegerLiteral {
    /// Integer literals are `Int128`, so `UInt64.max` and beyond can be written as literals.
    public init(integerLiteral value: Int128) { self = .integer(value) }
}

extension PropertyListValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension PropertyListValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PropertyListValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
}

extension PropertyListValue: ExpressibleByDictionaryLiteral {
    /// Keeps the literal's order; duplicate keys are kept too.
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self = .dictionary(elements.map { Entry(key: $0.0, value: $0.1) })
    }
}
