/// What sample archives need beyond a policy (`policy diff POLICY SAMPLES…`): each sample is
/// evaluated by the real evaluator (nested archives decoded), and every violation and
/// unacknowledged finding becomes a need — allow a class, accept a class or inline kind at a key
/// or at the root, add a key, stop requiring one, acknowledge a name — counted over the samples.
/// A gate going live runs it over the traffic it would have refused, to learn what to add.
public struct PolicyDiff {
    /// One thing the policy lacks, with the samples that need it.
    public struct Need: Hashable, Sendable, Comparable {
        /// `allow`, `accept`, `key`, `optional`, `acknowledge`, or `unfixable` (a Foundation object
        /// whose fields do not match its class: no policy admits it).
        public var kind: String
        /// The violation or danger code behind it.
        public var code: String
        /// The class the need is about (the class to allow, the schema's class).
        public var className: String?
        /// The key (or `$top` name) at fault.
        public var key: String?
        /// What to accept there (a class name or an inline kind).
        public var accept: String?

        public static func < (lhs: Need, rhs: Need) -> Bool {
            (lhs.kind, lhs.className ?? "", lhs.key ?? "", lhs.accept ?? "", lhs.code)
                < (rhs.kind, rhs.className ?? "", rhs.key ?? "", rhs.accept ?? "", rhs.code)
        }

        /// One readable line: what to change in the policy.
        public var summary: String {
            let name = className.map { "'\($0)'" } ?? ""
            let what = accept.map { "'\($0)'" } ?? ""
            switch kind {
            case "allow": return "allow \(name)"
            case "accept" where key == nil: return "accept \(what) at the root"
            case "accept": return "accept \(what) at key '\(key ?? "")'\(className.map { " of '\($0)'" } ?? "")"
            case "key": return "add key '\(key ?? "")' to the schema of \(name)"
            case "optional": return "stop requiring key '\(key ?? "")' of \(name)"
            case "acknowledge": return "acknowledge \(name) (\(code))"
            default: return "no policy admits \(name.isEmpty ? "the archive" : name)\(key.map { " (key '\($0)')" } ?? ""): \(code)"
            }
        }
    }

    /// The policy's name.
    public let policy: String
    /// Samples evaluated, and how many the policy accepts.
    public private(set) var sampleCount = 0
    public private(set) var acceptedCount = 0
    /// Each need with the samples (labels) that have it, in the order they were added.
    public private(set) var needs: [Need: [String]] = [:]
    /// Where each need was first met: a JSON pointer into the plain JSON of its first sample (the
    /// owner of a key is found there when the violation does not name it).
    public private(set) var firstPaths: [Need: String] = [:]
    /// Samples holding nested archives (accepted only when nested archives are decoded: `--nested`).
    public private(set) var nestedSamples: [String] = []
    /// Samples that could not be evaluated (malformed, a plain property list, over a limit).
    public private(set) var failures: [(sample: String, error: ArchiveGateError)] = []

    public init(policy: String) { self.policy = policy }

    /// Adds a sample's report under the policy.
    public mutating func add(_ report: ValidationReport, sample: String, nestedArchives: Bool) {
        sampleCount += 1
        if report.verdict.isValid { acceptedCount += 1 }
        if nestedArchives { nestedSamples.append(sample) }
        var seen = Set<Need>()
        func note(_ need: Need, at path: String) {
            seen.insert(need)
            if firstPaths[need] == nil { firstPaths[need] = path }
        }
        for violation in report.violations {
            note(Self.need(for: violation), at: violation.path)
        }
        for finding in report.unacknowledgedFindings {
            for name in [finding.className] + finding.namesToAcknowledge {
                note(Need(kind: "acknowledge", code: finding.code.rawValue, className: name), at: finding.path)
            }
        }
        for need in seen { needs[need, default: []].append(sample) }
    }

    /// Adds a sample that could not be evaluated.
    public mutating func add(_ error: ArchiveGateError, sample: String) {
        sampleCount += 1
        failures.append((sample, error))
    }

    /// The need a violation stands for (the evaluator's codes, `ViolationCode`).
    static func need(for violation: ValidationReport.Violation) -> Need {
        let code = violation.code.description
        switch violation.code {
        case .classNotAllowed:
            return Need(kind: "allow", code: code, className: violation.className)
        case .classMismatch:
            // The violation names the object's class and the key; the owner is in the path.
            return Need(kind: "accept", code: code, key: violation.key, accept: violation.className)
        case .inlineTypeMismatch:
            let kind = violation.message.components(separatedBy: "found an inline ").last?
                .split(separator: " ").first.map(String.init)
            let topName = violation.key == nil ? nil : violation.key
            return Need(kind: "accept", code: code, className: violation.key == nil ? nil : violation.className,
                        key: topName, accept: kind)
        case .unknownKey:
            return Need(kind: "key", code: code, className: violation.className, key: violation.key)
        case .missingRequiredKey:
            return Need(kind: "optional", code: code, className: violation.className, key: violation.key)
        default:
            return Need(kind: "unfixable", code: code, className: violation.className, key: violation.key)
        }
    }

    /// The needs, sorted, each with its samples.
    public var sortedNeeds: [(need: Need, samples: [String])] {
        needs.keys.sorted().map { ($0, needs[$0]!) }
    }

    /// True when the policy accepts every sample.
    public var isEmpty: Bool { acceptedCount == sampleCount && failures.isEmpty }
}
