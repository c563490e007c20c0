/// An error in the keyed-archive structure above a well-formed property list, or a decoding limit
/// that was exceeded. Located by a JSON pointer: into the archive's own plist (`/$objects/7/NS.keys`)
/// for structural errors, into the plain JSON output for limits met while walking.
///
/// Two errors are equal when their codes are equal.
public struct ArchiveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable reason. Its `rawValue` is what reports and HTTP problems show.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case notAKeyedArchive = "archive.not_a_keyed_archive"
            case unsupportedArchiver = "archive.unsupported_archiver"
            case invalidVersion = "archive.invalid_version"
            case invalidTop = "archive.invalid_top"
            case invalidObjects = "archive.invalid_objects"
            case danglingUID = "archive.dangling_uid"
            case classRecordAsValue = "archive.class_record_as_value"
            case invalidClassReference = "archive.invalid_class_reference"
            case invalidClassRecord = "archive.invalid_class_record"
            case missingClass = "archive.missing_class"
            case invalidObject = "archive.invalid_object"
            case invalidFieldValue = "archive.invalid_field_value"
            case reservedKey = "archive.reserved_key"
            case lengthMismatch = "archive.length_mismatch"
            case malformedFoundationObject = "archive.malformed_foundation_object"
            case depthLimitExceeded = "archive.depth_limit_exceeded"
            case outputLimitExceeded = "archive.output_limit_exceeded"
            case objectLimitExceeded = "archive.object_limit_exceeded"
            case collectionCycle = "archive.collection_cycle"
            case timeBudgetExceeded = "archive.time_budget_exceeded"
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The top-level object is not a dictionary with `$archiver`, `$top` and `$objects`.
        public static let notAKeyedArchive = Code(.notAKeyedArchive)
        /// `$archiver` is not `NSKeyedArchiver`.
        public static let unsupportedArchiver = Code(.unsupportedArchiver)
        /// `$version` is missing, not an integer, or not 100000 (the only version NSKeyedArchiver writes).
        public static let invalidVersion = Code(.invalidVersion)
        /// `$top` is not a dictionary of UIDs and inline scalars.
        public static let invalidTop = Code(.invalidTop)
        /// `$objects` is not an array starting with the string `$null`, or holds an entry of a kind
        /// no archiver writes there (an array, a UID, a nested container).
        public static let invalidObjects = Code(.invalidObjects)
        /// A UID points past the end of `$objects`.
        public static let danglingUID = Code(.danglingUID)
        /// A UID outside `$class` points at a class record.
        public static let classRecordAsValue = Code(.classRecordAsValue)
        /// `$class` is not a UID of a class record.
        public static let invalidClassReference = Code(.invalidClassReference)
        /// A class record lacks a string `$classname` or has a `$classes` that is not an array of strings.
        public static let invalidClassRecord = Code(.invalidClassRecord)
        /// A dictionary in `$objects` has neither `$class` nor `$classname`.
        public static let missingClass = Code(.missingClass)
        /// An object entry is neither a dictionary nor an inline scalar.
        public static let invalidObject = Code(.invalidObject)
        /// A field holds a nested container other than a flat array of UIDs and scalars.
        public static let invalidFieldValue = Code(.invalidFieldValue)
        /// A field key starts with a single `$` (reserved for the archiver; user keys are escaped as `$$`).
        public static let reservedKey = Code(.reservedKey)
        /// `NS.keys` and `NS.objects` have different lengths.
        public static let lengthMismatch = Code(.lengthMismatch)
        /// A Foundation class lacks the fields its encoding always has, or they have the wrong kind.
        public static let malformedFoundationObject = Code(.malformedFoundationObject)
        /// Objects nest deeper than the configured limit.
        public static let depthLimitExceeded = Code(.depthLimitExceeded)
        /// The JSON output would exceed the configured byte or node budget.
        public static let outputLimitExceeded = Code(.outputLimitExceeded)
        /// Foundation value objects (collections, dictionaries, attributed strings, errors …) contain
        /// themselves with no custom object in the cycle: each must be decoded before the one that
        /// holds it, so no decoder can build it.
        public static let collectionCycle = Code(.collectionCycle)
        /// `$objects` holds more entries than the configured limit.
        public static let objectLimitExceeded = Code(.objectLimitExceeded)
        /// The decode ran longer than `limits.maxDecodeMilliseconds`.
        public static let timeBudgetExceeded = Code(.timeBudgetExceeded)

        /// The stable identifier, e.g. `archive.dangling_uid`.
        public var rawValue: String { base.rawValue }
        public var description: String { base.rawValue }
    }

    public let code: Code
    /// A JSON pointer (RFC 6901) to where the problem is.
    public let path: String
    /// A human-readable explanation.
    public let message: String

    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { "\(code.rawValue) at \(path.isEmpty ? "/" : path): \(message)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
