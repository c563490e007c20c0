/// Why a typedstream could not be read: a stable code, the byte offset where the reader stopped and
/// a message for people. Two errors are equal when their codes are equal.
public struct TypedStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable reason; `rawValue` is what reports and HTTP problems show.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case truncated = "typedstream.truncated"
            case invalidHeader = "typedstream.invalid_header"
            case invalidTypeEncoding = "typedstream.invalid_type_encoding"
            case unexpectedTag = "typedstream.unexpected_tag"
            case danglingReference = "typedstream.dangling_reference"
            case invalidString = "typedstream.invalid_string"
            case trailingBytes = "typedstream.trailing_bytes"
            case depthLimitExceeded = "typedstream.depth_limit_exceeded"
            case objectLimitExceeded = "typedstream.object_limit_exceeded"
            case lengthLimitExceeded = "typedstream.length_limit_exceeded"
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The stream ends inside a value.
        public static let truncated = Code(.truncated)
        /// The header is not `04 0B streamtyped|typedstream` followed by a system version.
        public static let invalidHeader = Code(.invalidHeader)
        /// A type encoding is empty, unknown, unbalanced or nested too deeply.
        public static let invalidTypeEncoding = Code(.invalidTypeEncoding)
        /// A tag byte where the grammar allows none (e.g. an end-of-object marker outside an object).
        public static let unexpectedTag = Code(.unexpectedTag)
        /// A reference to a string, class or object the stream has not introduced.
        public static let danglingReference = Code(.danglingReference)
        /// A class name or type encoding that is not valid UTF-8.
        public static let invalidString = Code(.invalidString)
        /// Bytes follow the last top-level group that are not a group.
        public static let trailingBytes = Code(.trailingBytes)
        /// Objects nest deeper than the configured limit.
        public static let depthLimitExceeded = Code(.depthLimitExceeded)
        /// More objects, classes or values than the configured limit.
        public static let objectLimitExceeded = Code(.objectLimitExceeded)
        /// A string, data or array length beyond the configured limit (one past the input's end is `truncated`).
        public static let lengthLimitExceeded = Code(.lengthLimitExceeded)

        /// The stable identifier, e.g. `typedstream.truncated`.
        public var rawValue: String { base.rawValue }
        public var description: String { base.rawValue }
        /// True when a configured limit (not the input's form) is what this code reports.
        public var isLimit: Bool { [.depthLimitExceeded, .objectLimitExceeded, .lengthLimitExceeded].contains(self) }
    }

    public let code: Code
    /// Byte offset in the input where the problem was found.
    public let offset: Int
    /// A human-readable explanation.
    public let message: String

    public init(_ code: Code, offset: Int, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    public var description: String { "\(code.rawValue) at byte \(offset): \(message)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
