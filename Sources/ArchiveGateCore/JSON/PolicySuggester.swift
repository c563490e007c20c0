/// Derives a minimal policy from sample archives — the boilerplate of writing `initWithCoder:` by
/// hand, done once by reading what the samples contain — for a person to review and tighten.
///
/// Every custom class seen gets a key schema: each key's observed classes (or inline kinds), keys
/// present and non-nil in every sample instance marked `required`, unknown keys rejected. `root`
/// lists the classes seen at `$top`. Classes of the definitions table are covered by their group
/// (`foundation`, or `corelocation`, `uikit-values`, `pointer-collections` for the classes a gate
/// admits deliberately).
public struct PolicySuggester {
    private var rootClasses = Set<String>()
    /// The groups of the definitions-table classes seen (`foundation` also for inline values).
    private var groups = Set<String>()
    private var schemas: [String: ObservedClass] = [:]

    private struct ObservedClass {
        var instances = 0
        var keyClasses: [String: Set<String>] = [:]
        var keyOrder: [String] = []
        var nonNilCounts: [String: Int] = [:]
    }

    public init() {}

    /// Adds every object of one archive (structure already validated by `KeyedArchive`).
    public mutating func add(_ archive: KeyedArchive) {
        for entry in archive.top where entry.uid != 0 {
            if let name = archive.archiveClass(of: entry.uid)?.name { rootClasses.insert(name) }
        }
        for uid in 1 ..< archive.objectCount {
            guard let archiveClass = archive.archiveClass(of: uid) else { continue }
            if archiveClass.isInline || archiveClass.shape != nil {
                groups.insert(archiveClass.shape?.group.rawValue ?? ShapeGroup.foundation.rawValue)
                continue
            }
            observe(uid, className: archiveClass.name, in: archive)
        }
    }

    private mutating func observe(_ uid: Int, className: String, in archive: KeyedArchive) {
        var observed = schemas[className] ?? ObservedClass()
        observed.instances += 1
        let plist = archive.plist
        let index = archive.plistIndex(of: uid)
        for pair in 0 ..< plist.count(of: index) where !archive.isClassPair(uid, pair: pair) {
            let key = archive.userKey(uid, pair: pair)
            let value = plist.dictionaryValue(index, pair: pair)
            if observed.keyClasses[key] == nil { observed.keyOrder.append(key) }
            var classes = observed.keyClasses[key] ?? []
            if let target = archive.referencedUID(value) {
                if target != 0, let name = archive.archiveClass(of: target)?.name {
                    classes.insert(name)
                    observed.nonNilCounts[key, default: 0] += 1
                }
            } else if let kind = InlineKind(plist.kind(of: value)) {
                classes.insert(kind.rawValue)
                observed.nonNilCounts[key, default: 0] += 1
            } else {
                classes.insert("NSArray")
            }
            observed.keyClasses[key] = classes
        }
        schemas[className] = observed
    }

    /// The suggested policy as pretty JSON, keys in a stable order.
    public func policyJSON(name: String) -> String {
        var lines = ["{", "  \"name\": \(quote(name)),"]
        lines.append("  \"description\": \"Suggested from samples by `archivegate policy suggest`. Review every key before use.\",")
        lines.append("  \"root\": [\(rootClasses.sorted().map(quote).joined(separator: ", "))],")
        var allow = groups.sorted()
        allow += schemas.keys.sorted()
        lines.append("  \"allow\": [\(allow.map(quote).joined(separator: ", "))],")
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
            let required = observed.keyOrder.filter { observed.nonNilCounts[$0] == observed.instances }
            lines.append("      \"required\": [\(required.map(quote).joined(separator: ", "))],")
            lines.append("      \"unknownKeys\": \"reject\"")
            lines.append("    }\(position == names.count - 1 ? "" : ",")")
        }
        lines.append("  },")
        lines.append("  \"onViolation\": \"reject\"")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func quote(_ text: String) -> String {
        var output = JSONOutput(maxBytes: .max, maxNodes: .max, capacityHint: text.utf8.count + 2)
        output.appendString(text)
        return String(decoding: output.bytes, as: UTF8.self)
    }
}
