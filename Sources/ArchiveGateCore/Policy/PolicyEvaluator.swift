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

    var violations: [ValidationReport.Violation] = []
    var violationCount = 0
    /// How many of the violations are Foundation shape problems (`ShapeProblem`).
    var shapeViolationCount = 0
    var redactions = Redactions()
    var table: ExpectationTable
    /// The key schemas of the archive's classes, matched by key bytes.
    var schemaKeys: SchemaKeyTable
    /// Resolved non-ASCII schema keys, by `classIndex << 32 | key plist index`.
    var keyResolutions: [Int: KeyResolution] = [:]
    var requiredFound: [Bool] = []
    /// Shapes and the last layouts read, handed to the renderer with the evaluation.
    private(set) var shapes: ShapeMemo
    private var expanded: [Bool]
    /// Per archive class: true for the inline-scalar pseudo-classes, whose objects have no fields.
    private let isLeafClass: [Bool]
    /// Objects being expanded, outermost first, and each one's position there (-1 when not open).
    private var openUIDs: [Int] = []
    private var openPosition: [Int32]
    /// A lower bound of the JSON values each object's plain rendering emits, and the running sums
    /// of the open objects; used to refuse reference bombs before rendering anything.
    private var renderedNodes: [UInt64]
    private var openNodes: [UInt64] = []
    private var topNodes: UInt64 = 0
    private var sawCycle = false
    /// Collections whose elements were already checked, and against which constraints.
    private var checkedElements = ElementCheckMemo()
    /// The path from `$top` to the object being expanded, as components of the plain JSON.
    var path: [PathComponent] = []
    /// Danger findings and admission rules (`PolicyEvaluator+Danger`).
    var danger: DangerScan
    /// Checked every `deadlineStride` steps of the walk.
    var deadline: DecodeDeadline?
    /// Set when NSData holding a keyed archive is decoded too (`PolicyEvaluator+Nested`).
    var nesting: NestingContext?
    private static let deadlineStride = 4096

    /// How a custom class's key is treated, resolved once per distinct key object.
    struct KeyResolution {
        enum Kind {
            case unconstrained
            case rejected
            case entry(Int32)
        }

        var kind: Kind
        /// Position in the schema's `required`, or -1.
        var requiredSlot: Int
    }

    init(archive: KeyedArchive, policy: Policy) {
        self.archive = archive
        self.policy = policy
        self.table = ExpectationTable(allowed: policy.allowed, classes: archive.classes)
        self.schemaKeys = SchemaKeyTable(classes: archive.classes, policy: policy)
        self.shapes = ShapeMemo(objectCount: archive.objectCount)
        self.expanded = Array(repeating: false, count: archive.objectCount)
        self.isLeafClass = archive.classes.map(\.isInline)
        self.openPosition = Array(repeating: -1, count: archive.objectCount)
        self.renderedNodes = Array(repeating: 0, count: archive.objectCount)
        self.danger = DangerScan(archive: archive)
    }

    mutating func evaluate() throws(ArchiveError) -> PolicyEvaluation {
        var stack = WorkStack()
        let rootExpectation: SiteExpectation = policy.root.map { .entry(table.register(Expectation(accepted: $0))) } ?? .allowed
        for (position, entry) in archive.top.enumerated() {
            if let inline = entry.inlineValue { checkInlineTop(position, plistIndex: inline) }
        }
        for (position, entry) in archive.top.enumerated().reversed() {
            if entry.inlineValue != nil {
                topNodes += 1
                continue
            }
            stack.append(Edge(target: entry.uid, site: nil, topIndex: position,
                              expectation: rootExpectation, component: .top(position)))
        }
        var depth = 0
        var steps = 0
        while let work = stack.pop() {
            steps += 1
            if steps % Self.deadlineStride == 0 { try deadline?.check("checking the policy") }
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
            let counted = !edge.component.isNone
            try scanDanger(edge.target) { $0.pointer(appending: edge.component) }
            guard edge.target != 0, try checkSite(edge) else {
                addRenderedNodes(1, counted: counted)
                continue
            }
            guard !expanded[edge.target] else {
                if openPosition[edge.target] >= 0 {
                    try checkCycle(closingAt: edge.target)
                    addRenderedNodes(1, counted: counted)
                } else {
                    // A later site of an object already seen: plain JSON writes a shared object
                    // once and a `$ref` here, so one node is the least it costs (small values that
                    // expand again cost more: this stays a lower bound).
                    addRenderedNodes(1, counted: counted)
                }
                continue
            }
            expanded[edge.target] = true
            let entryCode = archive.entries.codes[edge.target]
            if entryCode >= 0, isLeafClass[Int(entryCode)] {
                // An inline scalar has no fields: what `expand` would find (nothing) is known, so
                // it is neither opened nor closed — the same depth check and node count, without
                // the stack round trip for about half of a typical archive's objects.
                if depth + 1 > policy.limits.maxDepth {
                    if counted { path.append(edge.component) }
                    throw ArchiveError(.depthLimitExceeded, path: pointer(),
                                       "objects nest deeper than the limit of \(policy.limits.maxDepth)")
                }
                renderedNodes[edge.target] = 1
                addRenderedNodes(1, counted: counted)
                if let problem = archive.inlineObjectProblem(edge.target) {
                    shapeViolationCount += 1
                    appendViolation(ViolationCode(problem.code), problem.message, path: pointer(appending: edge.component), uid: edge.target,
                                    className: "NSNumber", key: nil)
                }
                continue
            }
            openPosition[edge.target] = Int32(openUIDs.count)
            openUIDs.append(edge.target)
            openNodes.append(1)
            if counted { path.append(edge.component) }
            depth += 1
            if depth > policy.limits.maxDepth {
                throw ArchiveError(.depthLimitExceeded, path: pointer(),
                                   "objects nest deeper than the limit of \(policy.limits.maxDepth)")
            }
            stack.push(.leave(uid: edge.target, popsPath: counted))
            let firstChild = stack.count
            try expand(edge.target, into: &stack)
            stack.reverseFrom(firstChild)
        }
        try scanUnreachable()
        try deadline?.check("checking the policy")
        let estimate: UInt64? = sawCycle || !redactions.objects.isEmpty ? nil : topNodes
        return PolicyEvaluation(report: makeReport(), redactions: redactions, minimumPlainNodes: estimate, shapes: shapes,
                                onlyShapeViolations: violationCount > 0 && violationCount == shapeViolationCount,
                                nested: nesting?.archives ?? [:], nestedPlists: nesting?.plists ?? [:])
    }

    /// An inline `$top` value: a shape violation when Foundation decodes no such value under its
    /// name (`KeyedArchive.inlineTopProblem`), else accepted unless the policy's `root` names kinds
    /// and not this one.
    private mutating func checkInlineTop(_ position: Int, plistIndex: Int) {
        if let problem = archive.inlineTopProblem(archive.top[position]) {
            shapeViolationCount += 1
            appendViolation(ViolationCode(problem.code), problem.message, path: PathComponent.top(position).token(in: archive),
                            uid: nil, className: nil, key: problem.key)
            if !policy.allowed.acceptsAnyClass { redactions.topNames.insert(archive.top[position].name) }
            return
        }
        guard let root = policy.root, !root.acceptsAnyClass else { return }
        let kind = archive.plist.kind(of: plistIndex)
        if let inline = InlineKind(kind), root.inlineKinds.contains(inline) { return }
        let found = InlineKind(kind).map { "an inline \($0.rawValue)" } ?? "an inline \(kind)"
        let name = archive.top[position].name
        appendViolation(.inlineTypeMismatch, "$top '\(name)' expects \(root.summary), found \(found)",
                        path: PathComponent.top(position).token(in: archive), uid: nil, className: nil, key: nil)
        redactions.topNames.insert(name)
    }

    /// The Foundation shape object `uid` is read as (computed once per object).
    mutating func shape(of uid: Int) throws(ArchiveError) -> FoundationShape? {
        try shapes.shape(of: uid, in: archive)
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

    /// A reference back to an object still being expanded: an error when the cycle is of
    /// Foundation value objects alone (`ShapeMemo.isValueOnlyCycle`).
    private mutating func checkCycle(closingAt target: Int) throws(ArchiveError) {
        sawCycle = true
        let members = openUIDs[Int(openPosition[target])...]
        if try shapes.isValueOnlyCycle(members, in: archive) {
            throw ArchiveError(.collectionCycle, path: pointer(),
                               "\(members.count == 1 ? "a Foundation object contains itself" : "\(members.count) Foundation objects contain each other") (UIDs \(members.map(String.init).joined(separator: " → ")) → \(target))")
        }
    }

    // MARK: - Sites

    /// Checks that the target's class may stand at this site; records a violation otherwise.
    private mutating func checkSite(_ edge: Edge) throws(ArchiveError) -> Bool {
        guard let classIndex = archive.classIndex(of: edge.target) else { return true }
        var elementSet: Int?
        var keySet: Int?
        let accepted: Bool
        switch edge.expectation {
        case .unchecked:
            accepted = true
        case .allowed:
            accepted = table.accepts(set: ExpectationTable.allowedSet, classIndex: classIndex)
        case .entry(let index):
            let entry = table.entries[Int(index)]
            accepted = table.accepts(set: entry.accepted, classIndex: classIndex)
            elementSet = entry.elements
            keySet = entry.keys
        }
        guard accepted else {
            let className = archive.classes[classIndex].name
            if case .entry(let index) = edge.expectation {
                let expected = table.sets[table.entries[Int(index)].accepted]
                record(.classMismatch, mismatchMessage(className, expected: expected, uid: edge.target), at: edge,
                       uid: edge.target, className: className)
            } else {
                record(.classNotAllowed, "class '\(className)' is not allowed by policy '\(policy.name)'", at: edge,
                       uid: edge.target, className: className)
            }
            redact(edge)
            return false
        }
        noteAdmission(classIndex, edge: edge)
        try checkElements(of: edge, elements: elementSet, keys: keySet)
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

    /// Element (and dictionary key) classes of a collection, checked once per collection and
    /// constraint: the keys first, then the values or elements (the order findings are reported in).
    private mutating func checkElements(of edge: Edge, elements: Int?, keys: Int?) throws(ArchiveError) {
        guard let shape = try shape(of: edge.target), shape.isCollection || shape.isDictionary else { return }
        guard checkedElements.insert(uid: edge.target, elements: elements ?? -1, keys: keys ?? -1, objectCount: archive.objectCount) else { return }
        if shape.isDictionary {
            try checkMembers(of: edge, shape: shape, keys: true, set: keys ?? ExpectationTable.allowedSet, constrained: keys != nil)
        }
        try checkMembers(of: edge, shape: shape, keys: false, set: elements ?? ExpectationTable.allowedSet, constrained: elements != nil)
    }

    /// One pass of `checkElements`: a dictionary's keys (`keys`), or its values or a collection's
    /// elements. One loop per function, so the cursor's `next()` is inlined into it.
    private mutating func checkMembers(of edge: Edge, shape: FoundationShape, keys: Bool, set: Int, constrained: Bool) throws(ArchiveError) {
        var members = edges(of: edge.target, shape: shape)
        while let event = members.next() {
            switch event {
            case .edge(let element):
                if !keys { try checkElement(element, set: set, constrained: constrained, owner: edge) }
            case .entry(let key, let value):
                try checkElement(keys ? key : value, set: set, constrained: constrained, owner: edge)
            case .field, .inlineElement:
                break
            }
        }
    }

    private mutating func checkElement(_ element: ObjectEdge, set: Int, constrained: Bool, owner: Edge) throws(ArchiveError) {
        let uid = element.target
        try scanDanger(uid) { $0.pointer(appending: owner.component) + element.step.token(in: $0.archive) }
        guard uid != 0, let classIndex = archive.classIndex(of: uid) else { return }
        guard !table.accepts(set: set, classIndex: classIndex) else {
            if constrained {
                noteAdmission(classIndex, component: owner.component, isRoot: owner.site == nil && owner.topIndex >= 0)
            } else {
                noteAdmission(classIndex, edge: Edge(target: uid, site: nil, expectation: .allowed, component: .none))
            }
            return
        }
        let className = archive.classes[classIndex].name
        let code: ViolationCode = constrained ? .classMismatch : .classNotAllowed
        let message = constrained
            ? mismatchMessage(className, expected: table.sets[set], uid: uid)
            : "class '\(className)' is not allowed by policy '\(policy.name)'"
        appendViolation(code, message, path: pointer(appending: owner.component) + element.step.token(in: archive), uid: uid,
                        className: className, key: nil)
        redactions.sites.insert(element.site)
    }

    /// The edges of object `uid` read through `shape` (`KeyedArchive.edges(of:shape:layouts:)`),
    /// its layout through the walk's memo: the site check of a collection and its expansion right
    /// after read the same one.
    mutating func edges(of uid: Int, shape: FoundationShape) -> EdgeCursor {
        archive.edges(of: uid, shape: shape, layouts: &shapes.layouts)
    }

    /// The shape check of object `uid` as its class's `shape` (`KeyedArchive.shapeProblems`), the
    /// layouts read through the walk's memo. A reference field whose class is wrong is left to the
    /// walk's class check when the walk reads the object with its shape (and so follows that field).
    mutating func shapeProblems(of uid: Int, as shape: FoundationShape) throws(ArchiveError) -> [ShapeProblem] {
        let readWithShape = try self.shape(of: uid) != nil
        return archive.shapeProblems(of: uid, as: shape, referencesCheckedByWalk: readWithShape, layouts: &shapes.layouts)
    }
}
