/// One way a Foundation object's fields differ from what its class's `initWithCoder:` decodes
/// (secure coding on): Foundation would refuse the archive, or decode a different graph than the
/// plain JSON shows. The policy walk reports each one as a violation at the object's pointer.
public struct ShapeProblem: Hashable, Sendable {
    /// A stable, machine-readable reason; `rawValue` is the violation code reports show.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case shapeMismatch = "archive.shape_mismatch"
            case missingField = "archive.missing_field"
            case lengthMismatch = "archive.length_mismatch"
            case nullElement = "archive.null_element"
            case duplicateMember = "archive.duplicate_member"
            case invalidValue = "archive.invalid_value"
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A field holds the wrong plist kind: an integer where a string is decoded, a string where
        /// an array of UIDs is, an inline value where a reference is (or the reverse).
        public static let shapeMismatch = Code(.shapeMismatch)
        /// A field Foundation's decoder requires is absent.
        public static let missingField = Code(.missingField)
        /// A length Foundation checks is wrong: NSUUID's 16 bytes, NS.keys vs NS.objects.
        public static let lengthMismatch = Code(.lengthMismatch)
        /// `$null` as a collection element or dictionary key/value (Apple raises on nil).
        public static let nullElement = Code(.nullElement)
        /// The same member twice in a set, or the same key twice in a dictionary: Foundation keeps
        /// one, the JSON would show both.
        public static let duplicateMember = Code(.duplicateMember)
        /// A field of the right kind whose value Foundation refuses: an unknown time-zone name, an
        /// NSValue kind ArchiveGate cannot read, an unreadable decimal mantissa or index-set table.
        public static let invalidValue = Code(.invalidValue)

        /// Every code, for catalogues and tests.
        public static let all: [Code] = [.shapeMismatch, .missingField, .lengthMismatch, .nullElement, .duplicateMember, .invalidValue]

        /// The stable identifier, e.g. `archive.shape_mismatch`.
        public var rawValue: String { base.rawValue }
        public var description: String { base.rawValue }
    }

    public let code: Code
    /// The archive key of the field at fault, when one field is.
    public let key: String?
    /// The element position inside that field's array, when one element is.
    public let element: Int?
    /// A human-readable explanation naming the class and field.
    public let message: String

    public init(_ code: Code, key: String?, element: Int? = nil, _ message: String) {
        self.code = code
        self.key = key
        self.element = element
        self.message = message
    }
}
