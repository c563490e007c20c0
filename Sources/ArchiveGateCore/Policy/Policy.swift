/// A tenant's decoding contract — NSSecureCoding's "key → expected classes", declared in a file.
///
/// Compiled from JSON (see `Policy.load(json:)` and docs/POLICIES.md): class groups are
/// expanded, `extends` is resolved into subclass closures and inherited key schemas, so evaluation
/// only does set lookups.
public struct Policy: Sendable {
    /// What to do when violations are found.
    public enum ViolationAction: String, Sendable {
        /// Fail the whole decode (Foundation's `NSDecodingFailurePolicyRaiseException`).
        case reject
        /// Return the JSON with each violating subtree replaced by null, and list the violations.
        case redact
    }

    /// What to do with keys a class schema does not name.
    public enum UnknownKeys: String, Sendable {
        case reject
        case allow
    }

    /// The key schema of one class, with inherited keys merged in.
    public struct ClassSchema: Sendable {
        /// Expectations by *user* key (unescaped: a `$$x` archive key is `$x` here).
        public var keys: [String: Expectation]
        /// Keys that must be present and not nil.
        public var required: [String]
        public var unknownKeys: UnknownKeys
        /// The declared superclass, if any.
        public var extends: String?
    }

    /// A label for reports and logs.
    public var name: String
    /// What `$top` entries may be; nil means any allowed class.
    public var root: ClassSet?
    /// Classes accepted where no key schema says otherwise.
    public var allowed: ClassSet
    /// Key schemas by exact `$classname`.
    public var classes: [String: ClassSchema]
    public var onViolation: ViolationAction
    public var limits: DecodeLimits
    /// An inspection (forensic) policy: it may admit any class, and danger findings are reported
    /// without making the archive invalid. Gate policies (the default) refuse unacknowledged findings.
    public var inspection = false
    /// Classes whose danger findings the tenant accepts, by exact name (never a wildcard).
    public var acknowledged: Set<String> = []
    /// What the policy's author should fix, found when the document was loaded (`PolicyLint`).
    public var lint: [PolicyLint.Finding] = []

    /// Whether an unacknowledged danger finding makes the archive invalid.
    public var rejectsDanger: Bool { !inspection }

    public init(name: String, root: ClassSet?, allowed: ClassSet, classes: [String: ClassSchema],
                onViolation: ViolationAction, limits: DecodeLimits) {
        self.name = name
        self.root = root
        self.allowed = allowed
        self.classes = classes
        self.onViolation = onViolation
        self.limits = limits
    }

    /// Whether the policy names `className` anywhere it could be accepted (reports' `allowed` flag).
    public func mentions(_ className: String) -> Bool {
        if allowed.accepts(className: className) { return true }
        if root?.accepts(className: className) == true { return true }
        for schema in classes.values {
            for expectation in schema.keys.values {
                if expectation.accepted.accepts(className: className)
                    || expectation.elements?.accepts(className: className) == true
                    || expectation.dictionaryKeys?.accepts(className: className) == true { return true }
            }
        }
        return false
    }
}

extension Policy {
    /// Property-list classes only: strings, numbers, data, dates, arrays and dictionaries.
    public static let plistGroup: Set<String> = [
        "NSString", "NSMutableString", "NSNumber", "NSData", "NSMutableData", "NSDate",
        "NSArray", "NSMutableArray", "NSDictionary", "NSMutableDictionary",
    ]

    /// `plist` plus the value classes ArchiveGate renders naturally (every class of the Foundation
    /// definitions table in the `foundation` group). None can execute anything.
    public static let foundationGroup: Set<String> = plistGroup.union(FoundationShape.classNames(in: .foundation))

    /// The named groups a policy's class lists may use besides `*`: `plist`, and one per
    /// `ShapeGroup` of the definitions table (`foundation`, `corelocation`, `uikit-values`).
    public static let namedGroups: [String: Set<String>] = {
        var groups = ["plist": plistGroup, "foundation": foundationGroup]
        for group in ShapeGroup.allCases where group != .foundation {
            groups[group.rawValue] = FoundationShape.classNames(in: group)
        }
        return groups
    }()

    /// The built-in default: the `foundation` group; custom classes are rejected.
    public static let foundation = Policy(
        name: "foundation", root: nil, allowed: ClassSet(names: foundationGroup), classes: [:],
        onViolation: .reject, limits: DecodeLimits())

    /// Inspection mode for forensic use: any class is reported and rendered, never instantiated.
    /// Limits still apply.
    public static let inspection: Policy = {
        var policy = Policy(name: "inspection", root: nil, allowed: ClassSet(acceptsAnyClass: true), classes: [:],
                            onViolation: .reject, limits: DecodeLimits())
        policy.inspection = true
        return policy
    }()
}
