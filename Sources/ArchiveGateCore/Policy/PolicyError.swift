/// A policy file that cannot be used, located by a JSON pointer into the policy document.
public struct PolicyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case invalidJSON = "policy.invalid_json"
            case duplicateKey = "policy.duplicate_key"
            case invalidValue = "policy.invalid_value"
            case unknownField = "policy.unknown_field"
            case unknownSuperclass = "policy.unknown_superclass"
            case inheritanceCycle = "policy.inheritance_cycle"
            case unknownGroup = "policy.unknown_group"
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The document is not JSON, or not a JSON object.
        public static let invalidJSON = Code(.invalidJSON)
        /// One object names a member twice (`JSONDuplicateKeys`); the path points at the second.
        public static let duplicateKey = Code(.duplicateKey)
        /// A field has the wrong type or an out-of-range value.
        public static let invalidValue = Code(.invalidValue)
        /// A field the format does not define (typos must not silently weaken a policy).
        public static let unknownField = Code(.unknownField)
        /// `extends` names a class that has no schema in `classes`.
        public static let unknownSuperclass = Code(.unknownSuperclass)
        /// `extends` chains loop.
        public static let inheritanceCycle = Code(.inheritanceCycle)
        /// A lowercase name in a class list that is no group or inline kind (`"fundation"`): it
        /// would admit nothing and reject every archive (`PolicyLint+Suggestions`).
        public static let unknownGroup = Code(.unknownGroup)

        public var rawValue: String { base.rawValue }
        public var description: String { base.rawValue }
    }

    public let code: Code
    /// JSON pointer into the policy document.
    public let path: String
    public let message: String
    /// Where a JSON syntax error is (`policy.invalid_json`); nil for errors located by `path`.
    public var syntaxError: JSONSyntaxError?

    public init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String {
        if let syntaxError { return "\(code.rawValue) at line \(syntaxError.line), column \(syntaxError.column): \(message)" }
        return "\(code.rawValue) at \(path.isEmpty ? "/" : path): \(message)"
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
