/// A tenant file that cannot be used; the server refuses to start rather than run half-configured.
public struct TenantFileError: Error, CustomStringConvertible {
    /// A stable, machine-readable reason, for scripts that start the server and tests.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case unreadable = "tenant.unreadable"
            case notAnObject = "tenant.not_an_object"
            case unknownField = "tenant.unknown_field"
            case duplicateKey = "tenant.duplicate_key"
            case unacknowledgedRisk = "tenant.unacknowledged_risk"
            case invalidValue = "tenant.invalid_value"
            case duplicate = "tenant.duplicate"
            case invalidPolicy = "tenant.invalid_policy"
            case overBroadPolicy = "tenant.over_broad_policy"
            case publishedKey = "tenant.published_key"
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The tenant file, or the policy file it names, cannot be read.
        public static let unreadable = Code(.unreadable)
        /// The file is not a JSON object.
        public static let notAnObject = Code(.notAnObject)
        /// A field the tenant format does not have (a typo must not be ignored).
        public static let unknownField = Code(.unknownField)
        /// The file (an inline policy included) names a key twice in one object.
        public static let duplicateKey = Code(.duplicateKey)
        /// A risky setting (`fetchAllowedHosts` `*`, `*.com`) without `acknowledgeAnyFetchHost`.
        public static let unacknowledgedRisk = Code(.unacknowledgedRisk)
        /// A field holds a value of the wrong kind or out of range.
        public static let invalidValue = Code(.invalidValue)
        /// A tenant id or key hash used by two files.
        public static let duplicate = Code(.duplicate)
        /// The policy is missing or does not load.
        public static let invalidPolicy = Code(.invalidPolicy)
        /// A gate tenant's policy is over-broad (`PolicyLint`) without `"inspection": true`.
        public static let overBroadPolicy = Code(.overBroadPolicy)
        /// A tenant accepts the README's demo key on a server that is not bound to loopback.
        public static let publishedKey = Code(.publishedKey)

        /// The stable identifier, e.g. `tenant.unknown_field`.
        public var rawValue: String { base.rawValue }
        public var description: String { base.rawValue }
    }

    public var code: Code
    public var path: String
    public var message: String

    init(_ code: Code, path: String, _ message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
