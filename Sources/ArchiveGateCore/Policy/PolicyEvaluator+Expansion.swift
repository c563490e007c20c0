/// How one object is expanded into the edges the walk follows, with the checks that concern the
/// object itself (key schema, required keys) rather than a site.
extension PolicyEvaluator {
    mutating func expand(_ uid: Int, into edges: inout WorkStack) throws(ArchiveError) {
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
            expandFoundation(uid, shape: shape, into: &edges)
        } else {
            expandCustom(uid, classIndex: classIndex, into: &edges)
        }
    }

    /// Runs the shape check of a Foundation-class object; each problem is a violation at the
    /// object's pointer. Under a policy the object is then nulled and not walked (returns false);
    /// inspection mode (any class) renders it as it is and walks on, the report still invalid.
    private mutating func checkShape(_ uid: Int, as shape: FoundationShape, className: String) throws(ArchiveError) -> Bool {
        let problems = archive.shapeProblems(of: uid, as: shape, referencesCheckedByWalk: try self.shape(of: uid) != nil)
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

    private mutating func expandCustom(_ uid: Int, classIndex: Int, into edges: inout WorkStack) {
        let index = archive.plistIndex(of: uid)
        let compiled = schemaKeys.schemaOfClass[classIndex]
        if compiled >= 0 {
            requiredFound.removeAll(keepingCapacity: true)
            requiredFound.append(contentsOf: repeatElement(false, count: schemaKeys.classSlots[compiled].requiredCount))
        }
        let pairs = archive.plist.count(of: index)
        let referencesStart = archive.plist.referencesStart(of: index)
        for pair in 0 ..< pairs {
            let keyIndex = Int(archive.plist.references[referencesStart + 2 * pair])
            if archive.plist.stringEquals(keyIndex, "$class") { continue }
            let value = Int(archive.plist.references[referencesStart + 2 * pair + 1])
            let site = ReferenceSite(uid: uid, pair: pair)
            var expectation = SiteExpectation.allowed
            if compiled >= 0 {
                let resolution = resolveKey(keyIndex, pair: pair, classIndex: classIndex, compiled: compiled)
                if resolution.requiredSlot >= 0, archive.referencedUID(value) != 0 { requiredFound[resolution.requiredSlot] = true }
                switch resolution.kind {
                case .entry(let entry):
                    expectation = .entry(entry)
                case .rejected:
                    let key = archive.userKey(uid, pair: pair)
                    appendViolation(.unknownKey, "key '\(key)' is not in the schema of '\(archive.classes[classIndex].name)'",
                                    path: pointer(appending: .field(uid: uid, pair: pair)), uid: uid,
                                    className: archive.classes[classIndex].name, key: key)
                    redactions.sites.insert(site)
                    continue
                case .unconstrained:
                    break
                }
            }
            let object = archive.plist.objects[value]
            if object.kind == .uid {
                edges.append(Edge(target: archive.plist.uidValue(at: value), site: site, expectation: expectation,
                                  component: .field(uid: uid, pair: pair)))
                continue
            }
            if case .entry(let entry) = expectation {
                checkInline(object.kind, against: entry, uid: uid, pair: pair, classIndex: classIndex, site: site)
                continue
            }
            if object.kind == .array || object.kind == .set {
                for (position, element) in archive.plist.children(of: value).enumerated() where archive.plist.kind(of: Int(element)) == .uid {
                    edges.append(Edge(target: archive.plist.uidValue(ofReference: element),
                                      site: ReferenceSite(uid: uid, pair: pair, element: position), expectation: .allowed,
                                      component: .fieldElement(uid: uid, pair: pair, element: position)))
                }
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

    private mutating func expandFoundation(_ uid: Int, shape: FoundationShape, into edges: inout WorkStack) {
        let index = archive.plistIndex(of: uid)
        switch shape.jsonForm {
        case .array:
            // Elements the site check already faulted are redacted, not walked: their contents
            // are nobody's business once the element itself is refused.
            guard let layout = collectionLayout(uid) else { return }
            for position in 0 ..< layout.count {
                let site = layout.site(at: position, uid: uid)
                if !redactions.sites.isEmpty, redactions.sites.contains(site) { continue }
                edges.append(Edge(target: layout.target(at: position, in: archive), site: site, expectation: .unchecked,
                                  component: .index(position)))
            }
        case .dictionary:
            // `shape(of:)` guaranteed the keys and values exist, as many of each.
            guard let dictionary = dictionaryLayout(uid) else { return }
            let (keys, values, stringKeys) = (dictionary.keys, dictionary.values, dictionary.stringKeys)
            for position in 0 ..< keys.count {
                let keySite = keys.site(at: position, uid: uid), valueSite = values.site(at: position, uid: uid)
                if !redactions.sites.isEmpty, redactions.sites.contains(keySite) || redactions.sites.contains(valueSite) { continue }
                let keyUID = keys.target(at: position, in: archive)
                edges.append(Edge(target: keyUID, site: keySite, expectation: .unchecked, component: stringKeys ? .none : .pairKey(position)))
                edges.append(Edge(target: values.target(at: position, in: archive), site: valueSite, expectation: .unchecked,
                                  component: stringKeys ? .dictionaryKey(keyUID: keyUID) : .pairValue(position)))
            }
        case .attributedRuns:
            // The text is checked as the NSString field; each run's dictionary is walked where the
            // JSON shows it (`/i/attributes`), its site the NSAttributes field or array element, so
            // a refused dictionary is nulled in that run. The NSAttributes array itself is only a
            // table of dictionaries (its class is checked by the run reader), not walked as an array.
            let fields = shape.referenceFields
            if let pair = archive.plist.dictionaryPairIndex(index, forKey: "NSString"),
               let target = archive.referencedUID(archive.plist.dictionaryValue(index, pair: pair)) {
                edges.append(Edge(target: target, site: ReferenceSite(uid: uid, pair: pair),
                                  expectation: .entry(table.internalEntry(shape, field: 0)), component: .none))
            }
            guard case .success(_, let runs) = archive.attributedRuns(uid), let attributesField = fields.firstIndex(where: { $0.key.description == "NSAttributes" }) else { return }
            for (position, run) in runs.enumerated() {
                if !redactions.sites.isEmpty, redactions.sites.contains(run.attributes.site) { continue }
                edges.append(Edge(target: run.attributes.target, site: run.attributes.site,
                                  expectation: .entry(table.internalEntry(shape, field: attributesField)), component: .runAttributes(position)))
            }
        default:
            // By index: a `for … in` copy of each field retained and released its `accepts` set.
            let fields = shape.referenceFields
            for position in fields.indices {
                guard let pair = archive.plist.dictionaryPairIndex(index, forKey: fields[position].key),
                      let target = archive.referencedUID(archive.plist.dictionaryValue(index, pair: pair)) else { continue }
                edges.append(Edge(target: target, site: ReferenceSite(uid: uid, pair: pair),
                                  expectation: .entry(table.internalEntry(shape, field: position)),
                                  component: fields[position].jsonName.map { .fixed($0) } ?? .none))
            }
        }
    }
}
