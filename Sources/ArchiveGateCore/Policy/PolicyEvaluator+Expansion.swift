/// How one object is expanded into the edges the walk follows, with the checks that concern the
/// object itself (key schema, required keys) rather than a site.
extension PolicyEvaluator {
    mutating func expand(_ uid: Int, into work: inout WorkStack) throws(ArchiveError) {
        guard let classIndex = archive.classIndex(of: uid), !archive.classes[classIndex].isInline else { return }
        if archive.classes[classIndex].isInlineOnlyInstance {
            let className = archive.classes[classIndex].name
            let problem = ShapeProblem(.shapeMismatch, key: nil, "\(className) is only ever archived inline, never as an instance dictionary")
            if !record([problem], uid: uid, className: className) { return }
        }
        if let declared = archive.classes[classIndex].shape, try !checkShape(uid, as: declared, className: archive.classes[classIndex].name) {
            return
        }
        if let shape = try shape(of: uid) {
            expandFoundation(uid, shape: shape, into: &work)
        } else {
            expandCustom(uid, classIndex: classIndex, into: &work)
        }
    }

    /// Runs the shape check of a Foundation-class object; each problem is a violation at the
    /// object's pointer. Under a policy the object is then nulled and not walked (returns false);
    /// inspection mode (any class) renders it as it is and walks on, the report still invalid.
    private mutating func checkShape(_ uid: Int, as shape: FoundationShape, className: String) throws(ArchiveError) -> Bool {
        let problems = try shapeProblems(of: uid, as: shape)
        return record(problems, uid: uid, className: className)
    }

    /// Records shape problems of object `uid`; false when the object is then nulled, not walked.
    private mutating func record(_ problems: [ShapeProblem], uid: Int, className: String) -> Bool {
        guard !problems.isEmpty else { return true }
        let path = pointer()
        for problem in problems {
            shapeViolationCount += 1
            appendViolation(ViolationCode(problem.code), problem.message, path: path, uid: uid, className: className, key: problem.key)
        }
        if policy.allowed.acceptsAnyClass { return true }
        redactObject(uid)
        return false
    }

    /// A custom object's edges (`KeyedArchive.fieldEdges`), each field's key checked against the
    /// class's schema first: a rejected key is redacted, an inline value the schema names is
    /// checked here, and neither is followed.
    private mutating func expandCustom(_ uid: Int, classIndex: Int, into work: inout WorkStack) {
        let compiled = schemaKeys.schemaOfClass[classIndex]
        if compiled >= 0 {
            requiredFound.removeAll(keepingCapacity: true)
            requiredFound.append(contentsOf: repeatElement(false, count: schemaKeys.classSlots[compiled].requiredCount))
        }
        var edges = archive.fieldEdges(of: uid)
        // What the schema expects of the field whose references are being listed.
        var expectation = SiteExpectation.allowed
        while let event = edges.next() {
            switch event {
            case .field(let pair, let keyIndex, let value):
                expectation = .allowed
                guard compiled >= 0 else { continue }
                let resolution = resolveKey(keyIndex, pair: pair, classIndex: classIndex, compiled: compiled)
                if resolution.requiredSlot >= 0, archive.referencedUID(value) != 0 { requiredFound[resolution.requiredSlot] = true }
                switch resolution.kind {
                case .entry(let entry):
                    expectation = .entry(entry)
                    let kind = archive.plist.kind(of: value)
                    if kind != .uid {
                        checkInline(kind, against: entry, uid: uid, pair: pair, classIndex: classIndex, site: ReferenceSite(uid: uid, pair: pair))
                        edges.skipField()
                    }
                case .rejected:
                    let key = archive.userKey(uid, pair: pair)
                    appendViolation(.unknownKey, "key '\(key)' is not in the schema of '\(archive.classes[classIndex].name)'",
                                    path: pointer(appending: .field(uid: uid, pair: pair)), uid: uid,
                                    className: archive.classes[classIndex].name, key: key)
                    redactions.sites.insert(ReferenceSite(uid: uid, pair: pair))
                    edges.skipField()
                case .unconstrained:
                    break
                }
            case .edge(let edge):
                // An inline array's elements are checked against the policy's allow set.
                work.append(Edge(target: edge.target, site: edge.site, expectation: edge.kind == .field ? expectation : .allowed,
                                 component: edge.step))
            case .entry, .inlineElement:
                break
            }
        }
        guard compiled >= 0 else { return }
        for (slot, key) in schemaKeys.requiredNames[compiled].enumerated() where !requiredFound[slot] {
            let className = archive.classes[classIndex].name
            appendViolation(.missingRequiredKey, "'\(className)' requires key '\(key)'", path: pointer(), uid: uid,
                            className: className, key: key)
            redactObject(uid)
        }
    }

    /// An inline scalar where a schema key names what it expects: the kinds must match exactly.
    private mutating func checkInline(_ kind: PropertyListObject.Kind, against entry: Int32, uid: Int, pair: Int,
                                      classIndex: Int, site: ReferenceSite) {
        let acceptedSet = table.entries[Int(entry)].accepted
        if let inline = InlineKind(kind), table.acceptsInline(set: acceptedSet, inline) { return }
        let accepted = table.sets[acceptedSet]
        let found = InlineKind(kind).map { "an inline \($0.rawValue)" } ?? "an inline \(kind)"
        let key = archive.userKey(uid, pair: pair)
        appendViolation(.inlineTypeMismatch, "key '\(key)' expects \(accepted.summary), found \(found)",
                        path: pointer(appending: .field(uid: uid, pair: pair)), uid: uid,
                        className: archive.classes[classIndex].name, key: key)
        redactions.sites.insert(site)
    }

    /// What a schema says about one key object. ASCII keys (nearly all) are matched by their bytes;
    /// others are decoded once per distinct key object and compared as strings.
    private mutating func resolveKey(_ keyIndex: Int, pair: Int, classIndex: Int, compiled: Int) -> KeyResolution {
        if schemaKeys.classSlots[compiled].asciiOnly, archive.plist.kind(of: keyIndex) != .utf16String {
            switch schemaKeys.asciiSlot(compiled, keyIndex: keyIndex, pair: pair, in: archive.plist) {
            case .slot(let slot): return resolution(slot: slot, compiled: compiled)
            case .notInSchema: return resolution(slot: nil, compiled: compiled)
            case .notASCII: break
            }
        }
        let cacheKey = classIndex << 32 | keyIndex
        if let known = keyResolutions[cacheKey] { return known }
        var name = archive.plist.string(at: keyIndex) ?? ""
        if name.hasPrefix("$$") { name.removeFirst() }
        let resolved = resolution(slot: schemaKeys.slot(compiled, key: name), compiled: compiled)
        keyResolutions[cacheKey] = resolved
        return resolved
    }

    private mutating func resolution(slot: Int?, compiled: Int) -> KeyResolution {
        guard let slot else {
            return KeyResolution(kind: schemaKeys.classSlots[compiled].unknownKeys == .reject ? .rejected : .unconstrained,
                                 requiredSlot: -1)
        }
        let requiredSlot = schemaKeys.requiredSlot[slot]
        var entry = schemaKeys.entries[slot]
        if entry < 0 {
            // Read only here, once per slot: copying the `Expectation` out retains its sets.
            guard let declared = schemaKeys.declared[slot] else {
                return KeyResolution(kind: schemaKeys.classSlots[compiled].unknownKeys == .reject ? .rejected : .unconstrained,
                                     requiredSlot: requiredSlot)
            }
            entry = table.register(declared)
            schemaKeys.entries[slot] = entry
        }
        return KeyResolution(kind: .entry(entry), requiredSlot: requiredSlot)
    }

    /// A Foundation object's edges through its shape (`KeyedArchive.edges(of:shape:layouts:)`).
    /// Elements, entries and runs whose site the site check already faulted are redacted, not
    /// walked: their contents are nobody's business once the element itself is refused. A reference
    /// field, and a run's attribute dictionary (walked where the JSON shows it, `/i/attributes`),
    /// is checked against the classes Foundation accepts there.
    private mutating func expandFoundation(_ uid: Int, shape: FoundationShape, into work: inout WorkStack) {
        var edges = edges(of: uid, shape: shape)
        while let event = edges.next() {
            switch event {
            case .edge(let edge):
                let expectation: SiteExpectation
                switch edge.kind {
                case .referenceField:
                    expectation = .entry(table.internalEntry(shape, field: Int(edge.position)))
                case .runAttributes:
                    if isRedacted(edge.site) { continue }
                    expectation = .entry(table.internalEntry(shape, field: FoundationShape.attributesField))
                default:
                    if isRedacted(edge.site) { continue }
                    expectation = .unchecked
                }
                work.append(Edge(target: edge.target, site: edge.site, expectation: expectation, component: edge.step))
            case .entry(let key, let value):
                if isRedacted(key.site) || isRedacted(value.site) { continue }
                work.append(Edge(target: key.target, site: key.site, expectation: .unchecked, component: key.step))
                work.append(Edge(target: value.target, site: value.site, expectation: .unchecked, component: value.step))
            case .field, .inlineElement:
                break
            }
        }
    }

    /// Whether the site check refused the reference at `site` (most walks redact nothing).
    private func isRedacted(_ site: ReferenceSite) -> Bool {
        !redactions.sites.isEmpty && redactions.sites.contains(site)
    }
}
