/// An error found while reading a property list, binary or XML.
///
/// Two errors are equal when their codes are equal: tests and callers branch on the code, while
/// the offset, line and message are there for people.
public struct PropertyListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable reason. Its `rawValue` is what reports and HTTP problems show.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case notAPropertyList = "plist.not_a_property_list"
            case truncated = "plist.truncated"
            case invalidTrailer = "plist.invalid_trailer"
            case invalidOffset = "plist.invalid_offset"
            case invalidObjectReference = "plist.invalid_object_reference"
            case invalidMarker = "plist.invalid_marker"
            case invalidLength = "plist.invalid_length"
            case invalidInteger = "plist.invalid_integer"
            case invalidReal = "plist.invalid_real"
            case invalidString = "plist.invalid_string"
            case invalidUID = "plist.invalid_uid"
            case nonStringKey = "plist.non_string_key"
            case duplicateKey = "plist.duplicate_key"
            case invalidXML = "plist.invalid_xml"
            case forbiddenXMLConstruct = "plist.forbidden_xml_construct"
            case invalidBase64 = "plist.invalid_base64"
            case invalidDate = "plist.invalid_date"
            case depthLimitExceeded = "plist.depth_limit_exceeded"
            case objectLimitExceeded = "plist.object_limit_exceeded"
            case inputTooLarge = "plist.input_too_large"
            case stringTooLarge = "plist.string_too_large"
            case dataTooLarge = "plist.data_too_large"
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The input does not start like a binary or XML property list.
        public static let notAPropertyList = Code(.notAPropertyList)
        /// The input ends before a structure it announces.
        public static let truncated = Code(.truncated)
        /// The binary trailer's sizes, counts or offsets are inconsistent.
        public static let invalidTrailer = Code(.invalidTrailer)
        /// An offset-table entry points outside the object area.
        public static let invalidOffset = Code(.invalidOffset)
        /// A container refers to an object index that does not exist.
        public static let invalidObjectReference = Code(.invalidObjectReference)
        /// An object starts with a marker byte that is not defined for `bplist00`.
        public static let invalidMarker = Code(.invalidMarker)
        /// A length or count does not fit in the bytes that remain.
        public static let invalidLength = Code(.invalidLength)
        /// An integer has an unsupported width or does not fit 128 bits.
        public static let invalidInteger = Code(.invalidInteger)
        /// A real has an unsupported width or cannot be parsed.
        public static let invalidReal = Code(.invalidReal)
        /// ASCII with bytes >= 0x80, UTF-16 with lone surrogates, or invalid UTF-8 in XML.
        public static let invalidString = Code(.invalidString)
        /// A UID is wider than 4 bytes (so larger than 2^32 - 1) or malformed.
        public static let invalidUID = Code(.invalidUID)
        /// A dictionary key is not a string.
        public static let nonStringKey = Code(.nonStringKey)
        /// A dictionary has the same key twice.
        public static let duplicateKey = Code(.duplicateKey)
        /// XML that is not well formed or not a property list.
        public static let invalidXML = Code(.invalidXML)
        /// DOCTYPE internal subsets, entity declarations, external or undefined entities.
        public static let forbiddenXMLConstruct = Code(.forbiddenXMLConstruct)
        /// `<data>` that is not valid base64.
        public static let invalidBase64 = Code(.invalidBase64)
        /// A date that is not finite or not ISO 8601.
        public static let invalidDate = Code(.invalidDate)
        /// Containers nest deeper than the configured limit.
        public static let depthLimitExceeded = Code(.depthLimitExceeded)
        /// More objects than the configured limit.
        public static let objectLimitExceeded = Code(.objectLimitExceeded)
        /// The input is larger than the configured limit.
        public static let inputTooLarge = Code(.inputTooLarge)
        /// One string is longer than the configured limit.
        public static let stringTooLarge = Code(.stringTooLarge)
        /// One data object is larger than the configured limit.
        public static let dataTooLarge = Code(.dataTooLarge)

        /// The stable identifier, e.g. `plist.truncated`.
        public var rawValue: String { base.rawValue }
        public var description: String { base.rawValue }
    }

    public let code: Code
    /// Byte offset in the input where the problem was found (binary input).
    public let offset: Int?
    /// 1-based line where the problem was found (XML input).
    public let line: Int?
    /// A human-readable explanation.
    public let message: String

    public init(_ code: Code, offset: Int? = nil, line: Int? = nil, _ message: String) {
        self.code = code
        self.offset = offset
        self.line = line
        self.message = message
    }

    /// Where the problem is, as people say it: `at byte 123` or `at line 4`.
    public var location: String {
        if let offset { return "at byte \(offset)" }
        if let line { return "at line \(line)" }
        return "in the input"
    }

    public var description: String { "\(code.rawValue) \(location): \(message)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
