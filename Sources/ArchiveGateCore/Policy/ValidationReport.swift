/// The verdict on one archive under one policy, in a deterministic order: classes sorted by name,
/// violations in the order a depth-first walk from `$top` (in archive key order) meets them.
public struct ValidationReport: Hashable, Sendable, Codable {
    /// One class present in `$objects`.
    public struct ClassEntry: Hashable, Sendable, Codable {
        /// The exact `$classname` (or `NSString`/`NSNumber`/`NSData`/`NSDate` for inline scalars).
        public var name: String
        /// How many `$objects` entries have this class.
        public var count: Int
        /// Whether the policy accepts this class anywhere.
        public var allowed: Bool
        /// The superclass chain the file claims (`$classes`). Reported, never trusted.
        public var claimedClasses: [String]
        /// Which rules admitted the class (`allow`, `root`, `key:<Class>.<key>`, `inspection`,
        /// `foundation` for fields Foundation itself decodes), sorted; empty when none did.
        public var admittedBy: [String] = []
    }

    /// One breach of the policy.
    public struct Violation: Hashable, Sendable, Codable {
        /// A stable code such as `policy.class_not_allowed` (the catalogue is `ViolationCode`).
        public var code: ViolationCode
        public var message: String
        /// JSON pointer into the plain JSON rendering.
        public var path: String
        /// The UID of the offending object, when there is one.
        public var uid: Int?
        /// The offending object's class, or the class whose key is at fault.
        public var className: String?
        /// The archive key at fault, when there is one.
        public var key: String?

        enum CodingKeys: String, CodingKey {
            case code, message, path, uid, key
            case className = "class"
        }
    }

    /// The verdict (`Verdict`), computed once by the evaluator; `valid` is `verdict.isValid`, kept
    /// for compatibility. Set both through `settle(_:)`.
    public private(set) var verdict: Verdict
    /// True only when `verdict` is `accepted`.
    public private(set) var valid: Bool
    /// The policy's name.
    public var policy: String
    public var format: PropertyList.Format
    /// Entries in `$objects`, `$null` included.
    public var objectCount: Int
    public var classes: [ClassEntry]
    public var violations: [Violation]
    /// True when more violations were found than `limits.maxViolations` lets the report list.
    public var violationsTruncated: Bool
    /// The limits the decode ran under.
    public var limits: DecodeLimits
    /// Known-dangerous classes and shapes (`DangerCatalogue`), found in every mode; separate from
    /// violations. Unacknowledged findings make the archive invalid under a gate policy.
    public var findings: [Finding] = []
    /// True when more findings were found than `limits.maxViolations` lets the report list.
    public var findingsTruncated = false
    /// The `DangerCatalogue.version` the findings come from.
    public var dangerCatalogueVersion: Int = DangerCatalogue.builtIn.version

    public init(verdict: Verdict, policy: String, format: PropertyList.Format, objectCount: Int, classes: [ClassEntry],
                violations: [Violation], violationsTruncated: Bool, limits: DecodeLimits) {
        self.verdict = verdict
        self.valid = verdict.isValid
        self.policy = policy
        self.format = format
        self.objectCount = objectCount
        self.classes = classes
        self.violations = violations
        self.violationsTruncated = violationsTruncated
        self.limits = limits
    }

    /// Replaces the verdict (and with it `valid`), e.g. when sanitizing found more to redact.
    public mutating func settle(_ verdict: Verdict) {
        self.verdict = verdict
        self.valid = verdict.isValid
    }
}
