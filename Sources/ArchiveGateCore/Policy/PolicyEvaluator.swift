/// Walks the archive graph from `$top` once, depth first in archive key order, and checks every
/// reference site against the policy — what NSSecureCoding's `decodeObject(of:forKey:)` does, but
/// for every site (Apple checks a shared object only where it is first decoded).
///
/// Each object is expanded once (shared objects and cycles are not re-walked), so the walk is
/// linear in the archive size whatever the sharing; the explicit stack and a checked depth keep
/// attacker-controlled nesting off the call stack.
struct PolicyEvaluator {
    let archive: KeyedArchive
    let policy: Policy

    private var violations: [ValidationReport.Violation] = []
    private var violationCount = 0
    var redactions = Redactions()
    private var expanded: [Bool]
    /// Objects being expanded, outermost first, and each one's position there (-1 when not open).
    private var openUIDs: [Int] = []
    private var openPosition: [Int32]
    /// A lower bound of the JSON values each object's plain rendering emits, and the running sums
    /// of the open objects; used to refuse reference bombs before rendering anything.
    private var renderedNodes: [UInt64]
    private var openNodes: [UInt64] = []
    private var topNodes: UInt64 = 0
    private var sawCycle = false
    /// Collections whose elements were already checked against a given element set.
    private var checkedElements = Set<ElementCheck>()
    /// The path from `$top` to the object being expanded, as components of the plain JSON.
    private var path: [PathComponent] = []

    init(archive: KeyedArchive, policy: Policy) {
        self.archive = archive
        self.policy = policy
        self.expanded = Array(repeating: false, count: archive.objectCount)
        self.openPosition = Array(repeating: -1, count: archive.objectCount)
        self.renderedNodes = Array(repeating: 0, count: archive.objectCount)
    }

    enum Work {
        case visit(Edge)
        case leave(uid: Int, popsPath: Bool)
    }

    mutating func evaluate() throws(ArchiveError) -> PolicyEvaluation {
        var stack = [Work]()
        for entry in archive.top.reversed() {
            let expectation: SiteExpectation = policy.root.map { .explicit(Expectation(accepted: $0)) } ?? .allowed
            stack.append(.visit(Edge(target: entry.uid, site: nil, topName: entry.name,
                                     expectation: expectation, component: .name(entry.name))))
        }
        var edges = [Edge]()
        var depth = 0
        while let work = stack.popLast() {
            let edge: Edge
            switch work {
            case .leave(let uid, let popsPath):
                depth -= 1
                if popsPath { path.removeLast() }
                let nodes = openNodes.removeLast()
                renderedNodes[uid] = nodes
                openUIDs.removeLast()
                openPosition[uid] = -1
                addRenderedNodes(nodes, counted: popsPath)
                continue
            case .visit(let visited):
                edge = visited
            }
            guard edge.target != 0, checkSite(edge) else {
                addRenderedNodes(1, counted: edge.component != .none)
                continue
            }
            guard !expanded[edge.target] else {
                if openPosition[edge.target] >= 0 {
                    try checkCycle(closingAt: edge.target)
                    addRenderedNodes(1, counted: edge.component != .none)
                } else {
                    addRenderedNodes(renderedNodes[edge.target], counted: edge.component != .none)
                }
                continue
            }
            expanded[edge.target] = true
            openPosition[edge.target] = Int32(openUIDs.count)
            openUIDs.append(edge.target)
            openNodes.append(1)
            let popsPath = edge.component != .none
            if popsPath { path.append(edge.component) }
            depth += 1
            if depth > policy.limits.maxDepth {
                throw ArchiveError(.depthLimitExceeded, path: pointer(),
                                   "objects nest deeper than the limit of \(policy.limits.maxDepth)")
            }
            stack.append(.leave(uid: edge.target, popsPath: popsPath))
            edges.removeAll(keepingCapacity: true)
            try expand(edge.target, into: &edges)
            for child in edges.reversed() { stack.append(.visit(child)) }
        }
        let estimate: UInt64? = sawCycle || !redactions.objects.isEmpty ? nil : topNodes
        return PolicyEvaluation(report: makeReport(), redactions: redactions, minimumPlainNodes: estimate)
    }

    /// Adds a child's rendered-node count to the innermost open object (saturating: bombs overflow).
    private mutating func addRenderedNodes(_ nodes: UInt64, counted: Bool) {
        guard counted else { return }
        if openNodes.isEmpty {
            topNodes = topNodes.addingReportingOverflow(nodes).overflow ? .max : topNodes + nodes
        } else {
            let sum = openNodes[openNodes.count - 1].addingReportingOverflow(nodes)
            openNodes[openNodes.count - 1] = sum.overflow ? .max : sum.partialValue
        }
    }

    /// A reference back to an object still being expanded. Cycles through custom objects are how
    /// NSCoding graphs link parents and children and render as `$ref`; a cycle of Foundation
    /// collections alone cannot be decoded by anyone and is an error.
    private mutating func checkCycle(closingAt target: Int) throws(ArchiveError) {
        sawCycle = true
        let members = openUIDs[Int(openPosition[target])...]
        let valuesOnly = members.allSatisfy { uid in
            guard let shape = try? archive.shape(of: uid) else { return false }
            return shape.isCollection || shape == .dictionary
        }
        if valuesOnly {
            throw ArchiveError(.collectionCycle, path: pointer(),
                               "\(members.count == 1 ? "a collection contains itself" : "\(members.count) collections contain each other") (UIDs \(members.map(String.init).joined(separator: " → ")) → \(target))")
        }
    }

    // MARK: - Sites

    /// Checks that the target's class may stand at this site; records a violation otherwise.
    private mutating func checkSite(_ edge: Edge) -> Bool {
        let className = archive.archiveClass(of: edge.target)?.name ?? ""
        let accepted: Bool
        var elementSet: ClassSet?
        var keySet: ClassSet?
        switch edge.expectation {
        case .unchecked:
            accepted = true
        case .allowed:
            accepted = policy.allowed.accepts(className: className)
        case .explicit(let expectation):
            accepted = expectation.accepted.accepts(className: className)
            elementSet = expectation.elements
            keySet = expectation.dictionaryKeys
        case .internal(let classes):
            accepted = classes.accepts(className: className)
        }
        guard accepted else {
            let code: ViolationCode
            let message: String
            switch edge.expectation {
            case .explicit(let expectation):
                code = .classMismatch
                message = mismatchMessage(className, expected: expectation.accepted, uid: edge.target)
            case .internal(let classes):
                code = .classMismatch
                message = mismatchMessage(className, expected: classes, uid: edge.target)
            default:
                code = .classNotAllowed
                message = "class '\(className)' is not allowed by policy '\(policy.name)'"
            }
            record(code, message, at: edge, uid: edge.target, className: className)
            redact(edge)
            return false
        }
        checkElements(of: edge, elements: elementSet, keys: keySet)
        return true
    }

    private func mismatchMessage(_ className: String, expected: ClassSet, uid: Int) -> String {
        var message = "expected \(expected.summary), found '\(className)'"
        let claimed = archive.archiveClass(of: uid)?.claimedChain ?? []
        if claimed.dropFirst().contains(where: { expected.accepts(className: $0) }) {
            message += " (the archive claims it inherits from an expected class; $classes is never trusted — declare \"extends\" in the policy)"
        }
        return message
    }

    /// Element (and dictionary key) classes of a collection, checked once per collection and set.
    private mutating func checkElements(of edge: Edge, elements: ClassSet?, keys: ClassSet?) {
        guard let shape = try? archive.shape(of: edge.target) else { return }
        let isDictionary = shape == .dictionary
        guard shape.isCollection || isDictionary else { return }
        let elementSet = elements ?? policy.allowed
        let memo = ElementCheck(uid: edge.target, elements: elements, keys: keys)
        guard checkedElements.insert(memo).inserted else { return }
        let base = pointer(appending: edge.component)
        let stringKeys = isDictionary && dictionaryHasStringKeys(edge.target)
        if isDictionary, let keyUIDs = archive.uidArray(edge.target, "NS.keys") {
            let keySet = keys ?? policy.allowed
            for (position, element) in keyUIDs.enumerated() {
                let uid = Int(archive.plist[Int(element)].first)
                let keysPair = archive.plist.dictionaryPairIndex(archive.plistIndex(of: edge.target), forKey: "NS.keys") ?? -1
                checkElement(uid, set: keySet, constrained: keys != nil,
                             site: ReferenceSite(uid: edge.target, pair: keysPair, element: position),
                             path: stringKeys ? base : base + "/\(position)/key")
            }
        }
        guard let elementList = archive.collectionElements(edge.target) else { return }
        for (position, element) in elementList.enumerated() {
            let uid = element.target
            var elementPath = base + "/\(position)"
            if isDictionary {
                if stringKeys, let keyUIDs = archive.uidArray(edge.target, "NS.keys"), position < keyUIDs.count {
                    let keyUID = Int(archive.plist[Int(keyUIDs[keyUIDs.startIndex + position])].first)
                    elementPath = JSONPointer.appending(base, archive.stringValue(ofObject: keyUID) ?? "")
                } else {
                    elementPath += "/value"
                }
            }
            checkElement(uid, set: elementSet, constrained: elements != nil, site: element.site, path: elementPath)
        }
    }

    private mutating func checkElement(_ uid: Int, set: ClassSet, constrained: Bool, site: ReferenceSite, path: String) {
        guard uid != 0, let className = archive.archiveClass(of: uid)?.name, !set.accepts(className: className) else { return }
        let code: ViolationCode = constrained ? .classMismatch : .classNotAllowed
        let message = constrained
            ? mismatchMessage(className, expected: set, uid: uid)
            : "class '\(className)' is not allowed by policy '\(policy.name)'"
        appendViolation(code, message, path: path, uid: uid, className: className, key: nil)
        redactions.sites.insert(site)
    }

    func dictionaryHasStringKeys(_ uid: Int) -> Bool {
        guard let keys = archive.uidArray(uid, "NS.keys") else { return false }
        return keys.allSatisfy { archive.isStringObject(Int(archive.plist[Int($0)].first)) }
    }

    // MARK: - Violations

    mutating func record(_ code: ViolationCode, _ message: String, at edge: Edge, uid: Int?, className: String?,
                         key: String? = nil) {
        appendViolation(code, message, path: pointer(appending: edge.component), uid: uid, className: className, key: key)
    }

    mutating func appendViolation(_ code: ViolationCode, _ message: String, path: String, uid: Int?,
                                  className: String?, key: String?) {
        violationCount += 1
        guard violations.count < policy.limits.maxViolations else { return }
        violations.append(.init(code: code.rawValue, message: message, path: path, uid: uid, className: className, key: key))
    }

    mutating func redact(_ edge: Edge) {
        if let site = edge.site { redactions.sites.insert(site) } else if let name = edge.topName { redactions.topNames.insert(name) }
    }

    mutating func redactObject(_ uid: Int) { redactions.objects.insert(uid) }

    // MARK: - Paths

    func pointer(appending component: PathComponent = .none) -> String {
        var result = ""
        for part in path { result += part.token(in: archive) }
        return result + component.token(in: archive)
    }

    private func makeReport() -> ValidationReport {
        var counts: [Int: Int] = [:]
        for entry in archive.entries { if case .object(let index) = entry { counts[index, default: 0] += 1 } }
        var byName: [String: ValidationReport.ClassEntry] = [:]
        for (index, count) in counts {
            let archiveClass = archive.classes[index]
            if var existing = byName[archiveClass.name] {
                existing.count += count
                byName[archiveClass.name] = existing
            } else {
                byName[archiveClass.name] = .init(name: archiveClass.name, count: count,
                                                  allowed: policy.mentions(archiveClass.name),
                                                  claimedClasses: archiveClass.claimedChain)
            }
        }
        return ValidationReport(valid: violationCount == 0, policy: policy.name, format: archive.plist.format,
                                objectCount: archive.objectCount,
                                classes: byName.values.sorted { $0.name < $1.name },
                                violations: violations, violationsTruncated: violationCount > violations.count,
                                limits: policy.limits)
    }
}

/// Memo key: a collection whose elements were checked against a given element/key constraint.
private struct ElementCheck: Hashable {
    var uid: Int
    var elements: ClassSet?
    var keys: ClassSet?
}
