/// Derives a minimal policy from sample archives — the boilerplate of writing `initWithCoder:` by
/// hand, done once by reading what the samples contain — for a person to review and tighten.
///
/// Every custom class seen gets a key schema: each key's observed classes (or inline kinds), keys
/// present and non-nil in every instance of every sample marked `required`, unknown keys rejected.
/// `root` lists the classes seen at `$top` and the inline kinds of inline `$top` values (Foundation
/// writes a top-level bool or number inline). Classes of the definitions table are covered by their
/// group (`foundation`, or `corelocation`, `uikit-values`, `pointer-collections` for the classes a
/// gate admits deliberately). Danger findings the samples hold are acknowledged by name
/// (`noteFinding`), so the policy accepts what it was shown and the reviewer sees each one listed.
///
/// Each rule remembers the samples it came from (`PolicySuggester+Explain` says why it is there).
public struct PolicySuggester {
    /// The samples' labels (file paths), in the order they were added.
    public private(set) var samples: [String] = []
    /// `$top` classes, with the samples each was seen in.
    var rootClasses: [String: Set<Int>] = [:]
    /// Inline `$top` kinds (`bool`, `integer` …), with the `$top` names and samples.
    var rootInlineKinds: [String: Use] = [:]
    /// The groups of the definitions-table classes seen (`foundation` also for inline values), with
    /// the classes that brought each in.
    var groups: [String: Use] = [:]
    var schemas: [String: ObservedClass] = [:]
    /// Names to acknowledge (a finding's class and the functions, selectors and class constants it
    /// lists), with the danger codes that asked for each.
    var acknowledgements: [String: Use] = [:]

    /// Where a rule came from: the names that asked for it (classes, `$top` names, danger codes)
    /// and the samples they were seen in.
    struct Use {
        var names = Set<String>()
        var samples = Set<Int>()
    }

    struct ObservedClass {
        var instances = 0
        var samples = Set<Int>()
        var keyClasses: [String: Set<String>] = [:]
        var keyOrder: [String] = []
        var nonNilCounts: [String: Int] = [:]
        /// Per key, the first sample with an instance where the key is absent or nil.
        var firstLacking: [String: Int] = [:]
        /// Keys holding a plain property-list container in place, which no expectation can name.
        var unnameableKeys = Set<String>()
    }

    /// Whether danger findings are acknowledged (`noteFinding`); off, the policy rejects the
    /// samples that hold them, and `policy suggest --no-acknowledge` says which.
    public var acknowledgesFindings = true

    public init() {}

    /// The names the policy acknowledges, sorted.
    public var acknowledgedNames: [String] { acknowledgements.keys.sorted() }

    /// Starts a new sample: what `add` and `noteFinding` see next is attributed to `label`.
    public mutating func beginSample(_ label: String) {
        samples.append(label)
    }

    private var currentSample: Int {
        if samples.isEmpty { return -1 }
        return samples.count - 1
    }

    /// Adds every object of one archive (structure already validated by `KeyedArchive`).
    public mutating func add(_ archive: KeyedArchive) {
        if samples.isEmpty { beginSample("sample") }
        let sample = currentSample
        for entry in archive.top {
            if let inline = entry.inlineValue {
                if let kind = InlineKind(archive.plist.kind(of: inline)) {
                    rootInlineKinds[kind.rawValue, default: Use()].names.insert(entry.name)
                    rootInlineKinds[kind.rawValue, default: Use()].samples.insert(sample)
                }
            } else if entry.uid != 0, let name = archive.archiveClass(of: entry.uid)?.name {
                rootClasses[name, default: []].insert(sample)
            }
        }
        for uid in 1 ..< max(archive.objectCount, 1) {
            guard let archiveClass = archive.archiveClass(of: uid) else { continue }
            if archiveClass.isInline || archiveClass.shape != nil {
                let group = archiveClass.shape?.group.rawValue ?? ShapeGroup.foundation.rawValue
                groups[group, default: Use()].names.insert(archiveClass.name)
                groups[group, default: Use()].samples.insert(sample)
                continue
            }
            observe(uid, className: archiveClass.name, in: archive, sample: sample)
        }
    }

    /// Acknowledges a danger finding of the current sample: its class and every name it lists
    /// (`Finding.namesToAcknowledge`), exactly as `Policy.acknowledges` compares them.
    public mutating func noteFinding(_ finding: ValidationReport.Finding) {
        guard acknowledgesFindings else { return }
        for name in [finding.className] + finding.namesToAcknowledge {
            acknowledgements[name, default: Use()].names.insert(finding.code.rawValue)
            acknowledgements[name, default: Use()].samples.insert(currentSample)
        }
    }

    private mutating func observe(_ uid: Int, className: String, in archive: KeyedArchive, sample: Int) {
        var observed = schemas[className] ?? ObservedClass()
        observed.instances += 1
        observed.samples.insert(sample)
        let plist = archive.plist
        let index = archive.plistIndex(of: uid)
        var present = Set<String>()
        for pair in 0 ..< plist.count(of: index) where !archive.isClassPair(uid, pair: pair) {
            let key = archive.userKey(uid, pair: pair)
            let value = plist.dictionaryValue(index, pair: pair)
            guard archive.referencedUID(value) != nil || InlineKind(plist.kind(of: value)) != nil else {
                // A plain property-list array or dictionary written in place (as an NSArray
                // subclass writes `NS.objects`): no key expectation can name it, so the key stays
                // out of `keys` and the schema lets unknown keys through (its elements are still
                // checked against `allow`).
                observed.unnameableKeys.insert(key)
                continue
            }
            if observed.keyClasses[key] == nil {
                observed.keyOrder.append(key)
                // Every instance before this one lacked the key.
                if observed.instances > 1 { observed.firstLacking[key] = observed.samples.min() ?? sample }
            }
            var classes = observed.keyClasses[key] ?? []
            if let target = archive.referencedUID(value) {
                if target != 0, let name = archive.archiveClass(of: target)?.name {
                    classes.insert(name)
                    present.insert(key)
                }
            } else if let kind = InlineKind(plist.kind(of: value)) {
                classes.insert(kind.rawValue)
                present.insert(key)
            }
            observed.keyClasses[key] = classes
        }
        for key in present { observed.nonNilCounts[key, default: 0] += 1 }
        for key in observed.keyOrder where !present.contains(key) && observed.firstLacking[key] == nil {
            observed.firstLacking[key] = sample
        }
        schemas[className] = observed
    }

    /// The keys of `observed` present and non-nil in every instance seen.
    func requiredKeys(_ observed: ObservedClass) -> [String] {
        observed.keyOrder.filter { observed.nonNilCounts[$0] == observed.instances }
    }

    /// The `root` list: `$top` classes, then inline kinds.
    var rootNames: [String] { rootClasses.keys.sorted() + rootInlineKinds.keys.sorted() }

    /// The suggested policy as pretty JSON, keys in a stable order.
    public func policyJSON(name: String) -> String {
        var lines = ["{", "  \"name\": \(quote(name)),"]
        lines.append("  \"description\": \"Suggested from samples by `archivegate policy suggest`. Review every key before use.\",")
        lines.append("  \"root\": [\(rootNames.map(quote).joined(separator: ", "))],")
        var allow = groups.keys.sorted()
        allow += schemas.keys.sorted()
        lines.append("  \"allow\": [\(allow.map(quote).joined(separator: ", "))],")
        if !acknowledgements.isEmpty {
            lines.append("  \"acknowledge\": [\(acknowledgements.keys.sorted().map(quote).joined(separator: ", "))],")
        }
        lines.append("  \"classes\": {")
        let names = schemas.keys.sorted()
        for (position, className) in names.enumerated() {
            let observed = schemas[className]!
            lines.append("    \(quote(className)): {")
            lines.append("      \"keys\": {")
            for (keyPosition, key) in observed.keyOrder.enumerated() {
                let classes = observed.keyClasses[key]!.sorted().map(quote).joined(separator: ", ")
                lines.append("        \(quote(key)): [\(classes)]\(keyPosition == observed.keyOrder.count - 1 ? "" : ",")")
            }
            lines.append("      },")
            lines.append("      \"required\": [\(requiredKeys(observed).map(quote).joined(separator: ", "))],")
            lines.append("      \"unknownKeys\": \(observed.unnameableKeys.isEmpty ? "\"reject\"" : "\"allow\"")")
            lines.append("    }\(position == names.count - 1 ? "" : ",")")
        }
        lines.append("  },")
        lines.append("  \"onViolation\": \"reject\"")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    func quote(_ text: String) -> String {
        var output = JSONOutput(maxBytes: .max, maxNodes: .max, capacityHint: text.utf8.count + 2)
        output.appendString(text)
        return String(decoding: output.bytes, as: UTF8.self)
    }
}
