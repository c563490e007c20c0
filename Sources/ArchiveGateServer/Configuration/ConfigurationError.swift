/// A configuration value that cannot be used; names the key (and where it was written) so the
/// operator can find it. The server does not start with one.
public struct ConfigurationError: Error, CustomStringConvertible {
    /// A stable, machine-readable reason, for scripts that start the server and tests.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case invalidFile = "configuration.invalid_file"
            case duplicateKey = "configuration.duplicate_key"
            case unknownKey = "configuration.unknown_key"
            case invalidValue = "configuration.invalid_value"
            case unacknowledgedRisk = "configuration.unacknowledged_risk"
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The configuration file is not JSON, or not a JSON object.
        public static let invalidFile = Code(.invalidFile)
        /// The configuration file names a key twice in one object.
        public static let duplicateKey = Code(.duplicateKey)
        /// A key, section, `ARCHIVEGATE_*` variable or flag the configuration does not have.
        public static let unknownKey = Code(.unknownKey)
        /// A value of the wrong kind, out of range, or in conflict with another key.
        public static let invalidValue = Code(.invalidValue)
        /// A risky value without the key that acknowledges it.
        public static let unacknowledgedRisk = Code(.unacknowledgedRisk)

        /// The stable identifier, e.g. `configuration.unknown_key`.
        public var rawValue: String { base.rawValue }
        public var description: String { base.rawValue }
    }

    public var code: Code
    /// The key (`limits.maxBodyBytes`) or, for an unknown variable, the variable's name.
    public var key: String
    /// Where the value came from: `…/server.json`, `ARCHIVEGATE_LIMITS_MAX_BODY_BYTES`, `flag`; nil
    /// for a rule between keys.
    public var origin: String?
    public var message: String

    init(_ code: Code, key: String, origin: String? = nil, _ message: String) {
        self.code = code
        self.key = key
        self.origin = origin
        self.message = message
    }

    public var description: String {
        "configuration key '\(key)'\(origin.map { " (\($0))" } ?? ""): \(message)"
    }
}
