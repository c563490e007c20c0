/// Danger findings and admission rules, gathered during the policy walk.
struct DangerScan {
    let matcher: DangerMatcher
    var findings: [ValidationReport.Finding] = []
    var findingCount = 0
    var unacknowledgedCount = 0
    /// Nested archives found and not decoded (nesting off): the verdict cannot be `accepted`.
    var undecodedNestedArchives = 0
    /// Objects already looked at (each is reported once, at the first site the walk meets it).
    var seen: IndexBitSet
    /// Per archive class: `AdmissionRule` bits.
    var ruleBits: [UInt8]
    /// Key rules that admitted a class: (class index, owner class index, key plist index).
    var keyRules = Set<KeyRule>()
    /// Per key plist index, the last two key rules inserted for it (`KeyRule.memo`, 0 = none; at
    /// `2 * index` the latest): a key object admits the same class for the same owner at nearly
    /// every site, so the set is only touched when that changes (a flat table, allocated on the
    /// first key rule). Two, because a typed collection's key admits the collection's class and its
    /// elements' class by turns (`tags`: NSArray, then NSString per element). 32-bit entries keep
    /// the table at 8 bytes per plist object, as it was with one 64-bit entry (issue 7's peak).
    var lastKeyRule: [UInt32] = []
    /// Rules already in `keyRules` under another key object with the same bytes.
    var recentKeyRules = RecentKeyRules()

    struct KeyRule: Hashable {
        var classIndex: Int32
        var ownerClass: Int32
        var keyIndex: Int32

        /// Class and owner class in one nonzero word (class indices are below 2^31).
        var packed: UInt64 { 1 << 63 | UInt64(UInt32(bitPattern: classIndex)) << 31 | UInt64(UInt32(bitPattern: ownerClass)) }

        /// Class and owner class in one nonzero 32-bit word for `lastKeyRule`, or nil when either
        /// index is 2^16 − 1 or more (such an archive skips the memo and asks the set each time).
        var memo: UInt32? {
            guard classIndex >= 0, ownerClass >= 0, classIndex < 0xFFFF, ownerClass < 0xFFFF else { return nil }
            return UInt32(classIndex + 1) << 16 | UInt32(ownerClass + 1)
        }
    }

    init(archive: KeyedArchive) {
        matcher = DangerMatcher(archive: archive)
        ruleBits = Array(repeating: 0, count: archive.classes.count)
        seen = IndexBitSet(count: archive.objectCount)
    }
}

/// Rules that admit a class without naming a key, as bits.
enum AdmissionRule {
    static let allow: UInt8 = 1
    static let root: UInt8 = 2
    static let inspection: UInt8 = 4
    static let foundation: UInt8 = 8
    static let names: [(UInt8, String)] = [(allow, "allow"), (foundation, "foundation"), (inspection, "inspection"), (root, "root")]
}

extension PolicyEvaluator {
    /// Looks at the target of a reference the walk meets, before the policy decides on it, so a
    /// rejected object is still named by its danger code.
    mutating func scanDanger(_ uid: Int, path: (PolicyEvaluator) -> String) throws(ArchiveError) {
        guard uid != 0, let classIndex = archive.classIndex(of: uid), danger.matcher.mayMatch[classIndex],
              danger.seen.insert(uid) else { return }
        guard let match = danger.matcher.match(uid, classIndex: classIndex, in: archive) else { return }
        try recordFinding(match, uid: uid, classIndex: classIndex, path: path(self))
    }

    /// After the walk: objects no `$top` entry reaches are still in the file, and still reported.
    mutating func scanUnreachable() throws(ArchiveError) {
        for uid in 1 ..< max(archive.objectCount, 1) where !danger.seen.contains(uid) {
            guard let classIndex = archive.classIndex(of: uid), danger.matcher.mayMatch[classIndex],
                  let match = danger.matcher.match(uid, classIndex: classIndex, in: archive) else { continue }
            try recordFinding(match, uid: uid, classIndex: classIndex, path: "/$objects/\(uid)")
        }
    }

    private mutating func recordFinding(_ match: DangerMatcher.Match, uid: Int, classIndex: Int, path: String) throws(ArchiveError) {
        let entry = match.entry
        let className = archive.classes[classIndex].name
        var finding = ValidationReport.Finding(code: entry.code, className: className, path: path, reason: entry.reason,
                                               reference: entry.reference, acknowledged: false, via: match.via,
                                               matched: match.matched, details: DangerMatcher.details(uid, in: archive))
        finding.acknowledged = policy.acknowledges(finding)
        if !finding.acknowledged, policy.rejectsDanger { redactObject(uid) }
        appendFinding(finding)
        if entry.match == .shape(.nestedArchive), nesting == nil { danger.undecodedNestedArchives += 1 }
        if entry.match == .shape(.nestedArchive), nesting != nil, let index = DangerMatcher.dataIndex(uid, archive: archive),
           let bytes = archive.plist.data(at: index) {
            try evaluateNested(bytes, dataIndex: index, path: path)
        }
    }

    /// Counts a finding and lists it while the report has room.
    mutating func appendFinding(_ finding: ValidationReport.Finding) {
        danger.findingCount += 1
        if !finding.acknowledged { danger.unacknowledgedCount += 1 }
        guard danger.findings.count < policy.limits.maxViolations else { return }
        danger.findings.append(finding)
    }

    /// Notes which rule let `classIndex` stand at `edge`.
    mutating func noteAdmission(_ classIndex: Int, edge: Edge) {
        switch edge.expectation {
        case .unchecked:
            return
        case .allowed:
            danger.ruleBits[classIndex] |= policy.allowed.acceptsAnyClass && policy.inspection ? AdmissionRule.inspection : AdmissionRule.allow
        case .entry:
            noteAdmission(classIndex, component: edge.component, isRoot: edge.site == nil && edge.topIndex >= 0)
        }
    }

    /// Notes a key (or root, or Foundation-internal) rule for a class admitted under `component`.
    mutating func noteAdmission(_ classIndex: Int, component: PathComponent, isRoot: Bool) {
        switch component {
        case .field(let owner, let pair), .fieldElement(let owner, let pair, _):
            guard let ownerClass = archive.classIndex(of: owner) else { return }
            let keyIndex = archive.plist.dictionaryKey(archive.plistIndex(of: owner), pair: pair)
            let rule = DangerScan.KeyRule(classIndex: Int32(classIndex), ownerClass: Int32(ownerClass), keyIndex: Int32(keyIndex))
            if danger.lastKeyRule.isEmpty { danger.lastKeyRule = Array(repeating: 0, count: 2 * archive.plist.objects.count) }
            if let memo = rule.memo {
                let recent = 2 * keyIndex
                guard danger.lastKeyRule[recent] != memo, danger.lastKeyRule[recent + 1] != memo else { return }
                danger.lastKeyRule[recent + 1] = danger.lastKeyRule[recent]
                danger.lastKeyRule[recent] = memo
            }
            if danger.recentKeyRules.containsOrRemembers(rule, in: archive.plist) { return }
            danger.keyRules.insert(rule)
        default:
            danger.ruleBits[classIndex] |= isRoot ? AdmissionRule.root : AdmissionRule.foundation
        }
    }

    /// `admittedBy` of every class, by class name.
    func admissionNames() -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for (classIndex, bits) in danger.ruleBits.enumerated() where bits != 0 {
            for (bit, name) in AdmissionRule.names where bits & bit != 0 {
                result[archive.classes[classIndex].name, default: []].insert(name)
            }
        }
        for rule in danger.keyRules {
            let archiveKey = archive.plist.string(at: Int(rule.keyIndex)) ?? ""
            let key = archiveKey.hasPrefix("$$") ? String(archiveKey.dropFirst()) : archiveKey
            result[archive.classes[Int(rule.classIndex)].name, default: []]
                .insert("key:\(archive.classes[Int(rule.ownerClass)].name).\(key)")
        }
        return result
    }
}
