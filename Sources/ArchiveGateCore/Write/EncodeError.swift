/// Why typed JSON could not be turned into an archive. Located by a JSON pointer into the typed
/// JSON the client sent (`/$objects/4/NS.keys/2`) and, for syntax errors, a byte offset.
///
/// Structural problems of the archive the JSON describes (a dangling `$uid`, a collection that
/// contains itself, a malformed class record) carry the core's own archive codes
/// (`archive.dangling_uid`, `archive.collection_cycle` …): typed JSON mirrors the archive, so the
/// archive's pointer is the JSON's pointer. Two errors are equal when their codes are equal.
public struct EncodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case invalidJSON = "encode.invalid_json"
            case inputTooLarge = "encode.input_too_large"
            case depthLimitExceeded = "encode.depth_limit_exceeded"
            case objectLimitExceeded = "encode.object_limit_exceeded"
            case stringTooLarge = "encode.string_too_large"
            case dataTooLarge = "encode.data_too_large"
            case outputLimitExceeded = "encode.output_limit_exceeded"
            case duplicateKey = "encode.duplicate_key"
            case unknownTag = "encode.unknown_tag"
            case invalidTag = "encode.invalid_tag"
            case invalidValue = "encode.invalid_value"
            case notRepresentable = "encode.not_representable"
        }

        private let rawCode: String
        private init(_ base: Base) { rawCode = base.rawValue }
        /// A code of the archive layer, for structural problems found in the archive written.
        init(archive code: ArchiveError.Code) { rawCode = code.rawValue }
        /// A code of the property-list layer (a reader limit the written archive still breaks).
        init(propertyList code: PropertyListError.Code) { rawCode = code.rawValue }

        /// The input is not well-formed JSON (RFC 8259) in UTF-8.
        public static let invalidJSON = Code(.invalidJSON)
        /// The JSON is larger than `maxInputBytes`.
        public static let inputTooLarge = Code(.inputTooLarge)
        /// JSON values nest deeper than `maxDepth`.
        public static let depthLimitExceeded = Code(.depthLimitExceeded)
        /// The JSON describes more property-list values than `maxObjects`.
        public static let objectLimitExceeded = Code(.objectLimitExceeded)
        /// A string is longer than `maxStringBytes` (UTF-8).
        public static let stringTooLarge = Code(.stringTooLarge)
        /// A `$data` payload is larger than `maxDataBytes`.
        public static let dataTooLarge = Code(.dataTooLarge)
        /// The archive written would be larger than `maxOutputBytes`.
        public static let outputLimitExceeded = Code(.outputLimitExceeded)
        /// An object names the same key twice.
        public static let duplicateKey = Code(.duplicateKey)
        /// A one-member object whose key starts with `$` is not one of the tags typed JSON uses
        /// (`$uid`, `$real`, `$data`, `$date`, `$set`).
        public static let unknownTag = Code(.unknownTag)
        /// A tag object has other members, or its value has the wrong type (`{"$uid": "3"}`,
        /// `{"$data": "not base64"}`, a `$uid` outside 0…2^32-1).
        public static let invalidTag = Code(.invalidTag)
        /// A JSON value typed JSON never holds: `null`, or a bare non-integer number (reals are
        /// written `{"$real": x}`), or an integer outside the 128-bit range.
        public static let invalidValue = Code(.invalidValue)
        /// A value the chosen output format cannot hold exactly: in XML, a `$set`, a date with a
        /// fraction of a second, or a string with a control character XML 1.0 forbids.
        public static let notRepresentable = Code(.notRepresentable)

        /// The stable identifier, e.g. `encode.unknown_tag` or `archive.dangling_uid`.
        public var rawValue: String { rawCode }
        public var description: String { rawCode }
    }

    public let code: Code
    /// A JSON pointer (RFC 6901) into the typed JSON; empty for the whole document.
    public let pointer: String
    /// The byte offset in the JSON text, when the problem is a syntax or size problem found while reading it.
    public let offset: Int?
    /// A human-readable explanation.
    public let message: String

    public init(_ code: Code, pointer: String, offset: Int? = nil, _ message: String) {
        self.code = code
        self.pointer = pointer
        self.offset = offset
        self.message = message
    }

    /// True when a configured limit (size, count, depth, output) was what stopped the encode.
    public var isLimit: Bool {
        [.inputTooLarge, .depthLimitExceeded, .objectLimitExceeded, .stringTooLarge, .dataTooLarge, .outputLimitExceeded,
         Code(archive: .depthLimitExceeded), Code(archive: .objectLimitExceeded), Code(archive: .outputLimitExceeded),
         Code(archive: .timeBudgetExceeded)].contains(code)
    }

    /// `at /$objects/3 (byte 120)`.
    public var location: String {
        "at \(pointer.isEmpty ? "/" : pointer)" + (offset.map { " (byte \($0))" } ?? "")
    }

    public var description: String { "\(code.rawValue) \(location): \(message)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
