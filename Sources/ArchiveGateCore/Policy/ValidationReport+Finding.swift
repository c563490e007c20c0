extension ValidationReport {
    /// A match of the danger catalogue: a known-dangerous class or shape in the archive.
    public struct Finding: Hashable, Sendable, Codable {
        /// How the catalogue recognised the object when its `$classname` is not itself a catalogue
        /// class (absent for an exact `$classname` and for shape entries).
        public enum Via: String, Hashable, Sendable, Codable {
            /// The `$classname` as Foundation's class lookup sees it (`ClassLookupName`).
            case lookup
            /// A class of the claimed `$classes` chain (NSKeyedUnarchiver falls back along it).
            case chain
            /// The object's field keys (`DangerEntry.Match.keys`), whatever its class says.
            case keys
        }

        /// The catalogue entry's code, such as `danger.predicate`.
        public var code: DangerCode
        /// The class of the object found.
        public var className: String
        /// JSON pointer into the plain JSON rendering (`/$objects/<uid>` for an object no `$top`
        /// entry reaches).
        public var path: String
        public var reason: String
        public var reference: String
        /// True when the policy acknowledges the class by name (`acknowledge`), and every function,
        /// selector and class constant the finding lists as well.
        public var acknowledged: Bool
        /// How the object was recognised, when not by its exact `$classname`.
        public var via: Via?
        /// What matched under `via`: the catalogue class (`lookup`, `chain`) or the key (`keys`).
        public var matched: String?
        /// Function selectors the object names (`NSSelectorName` of an expression).
        public var functions: [String]?
        /// Comparison or sort selectors it names (`NSSelectorName` of an operator, `NSSelector`).
        public var selectors: [String]?
        /// Key paths it names (`NSKeyPath`, a sort descriptor's `NSKey`).
        public var keyPaths: [String]?
        /// Class constants it names (`NSConstantValueClassName`, looked up by `NSClassFromString`).
        public var classConstants: [String]?

        public init(code: DangerCode, className: String, path: String, reason: String, reference: String, acknowledged: Bool,
                    via: Via? = nil, matched: String? = nil, details: DangerDetails = DangerDetails()) {
            self.code = code
            self.className = className
            self.path = path
            self.reason = reason
            self.reference = reference
            self.acknowledged = acknowledged
            self.via = via
            self.matched = matched
            functions = details.functions.isEmpty ? nil : details.functions
            selectors = details.selectors.isEmpty ? nil : details.selectors
            keyPaths = details.keyPaths.isEmpty ? nil : details.keyPaths
            classConstants = details.classConstants.isEmpty ? nil : details.classConstants
        }

        /// The names a policy must acknowledge, besides the class, for the finding to pass: every
        /// function, selector and class constant but the routine ones (`DangerDetails.routine`).
        public var namesToAcknowledge: [String] {
            ((functions ?? []) + (selectors ?? []) + (classConstants ?? [])).filter { !DangerDetails.routine.contains($0) }
        }

        enum CodingKeys: String, CodingKey {
            case code, path, reason, reference, acknowledged, via, matched, functions, selectors, keyPaths, classConstants
            case className = "class"
        }
    }

    /// Findings the policy does not acknowledge.
    public var unacknowledgedFindings: [Finding] { findings.filter { !$0.acknowledged } }
}

/// What a predicate, expression or sort descriptor object names that runs when it is evaluated,
/// read from its own fields (see `DangerMatcher.details`).
public struct DangerDetails: Hashable, Sendable {
    public var functions: [String] = []
    public var selectors: [String] = []
    public var keyPaths: [String] = []
    public var classConstants: [String] = []

    /// Selectors every sort descriptor and key-path expression Foundation writes carries (the
    /// standard comparisons, key-value coding): acknowledging the class covers them.
    public static let routine: Set<String> = [
        "compare:", "caseInsensitiveCompare:", "localizedCompare:", "localizedCaseInsensitiveCompare:",
        "localizedStandardCompare:", "valueForKey:", "valueForKeyPath:",
    ]

    public init() {}
}
