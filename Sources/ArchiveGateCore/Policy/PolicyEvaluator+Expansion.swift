/// How one object is expanded into the edges the walk follows, with the checks that concern the
/// object itself (key schema, required keys) rather than a site.
extension PolicyEvaluator {
    mutating func expand(_ uid: Int, into edges: inout [Edge]) throws(ArchiveError) {
        guard let classIndex = archive.classIndex(of: uid), !archive.classes[classIndex].isInline else { return }
        if let shape = try shape(of: uid) {
            expandFoundation(uid, shape: shape, into: &edges)
        } else {
            expandCustom(uid, classIndex: classIndex, into: &edges)
        }
    }

    private mutating func expandCustom(_ uid: Int, classIndex: Int, into edges: inout [Edge]) {
        let plist = archive.plist
        let index = archive.plistIndex(of: uid)
        let schema = schemas[classIndex]
        if let schema {
            requiredFound.removeAll(keepingCapacity: true)
            requiredFound.append(contentsOf: repeatElement(false, count: schema.required.count))
        }
        for pair in 0 ..< plist.count(of: index) where !archive.isClassPair(uid, pair: pair) {
            let value = plist.dictionaryValue(index, pair: pair)
            let site = ReferenceSite(uid: uid, pair: pair)
            var expectation = SiteExpectation.allowed
            if let schema {
                let resolution = resolveKey(plist.dictionaryKey(index, pair: pair), classIndex: classIndex, schema: schema)
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
            let kind = plist[value].kind
            if kind == .uid {
                edges.append(Edge(target: Int(plist[value].first), site: site, expectation: expectation,
                                  component: .field(uid: uid, pair: pair)))
                continue
            }
            if case .entry(let entry) = expectation {
                checkInline(kind, against: entry, uid: uid, pair: pair, classIndex: classIndex, site: site)
                continue
            }
            if kind == .array || kind == .set {
                for (position, element) in plist.children(of: value).enumerated() where plist[Int(element)].kind == .uid {
                    edges.append(Edge(target: Int(plist[Int(element)].first),
                                      site: ReferenceSite(uid: uid, pair: pair, element: position), expectation: .allowed,
                                      component: .fieldElement(uid: uid, pair: pair, element: position)))
                }
            }
        }
        guard let schema else { return }
        for (slot, key) in schema.required.enumerated() where !requiredFound[slot] {
            let className = archive.classes[classIndex].name
            appendViolation(.missingRequiredKey, "'\(className)' requires key '\(key)'", path: pointer(), uid: uid,
                            className: className, key: key)
            redactObject(uid)
        }
    }

    /// An inline scalar where a schema key names what it expects: the kinds must match exactly.
    private mutating func checkInline(_ kind: PropertyListObject.Kind, against entry: Int32, uid: Int, pair: Int,
                                      classIndex: Int, site: ReferenceSite) {
        let accepted = table.sets[table.entries[Int(entry)].accepted]
        if let inline = InlineKind(kind), accepted.inlineKinds.contains(inline) { return }
        let found = InlineKind(kind).map { "an inline \($0.rawValue)" } ?? "an inline \(kind)"
        let key = archive.userKey(uid, pair: pair)
        appendViolation(.inlineTypeMismatch, "key '\(key)' expects \(accepted.summary), found \(found)",
                        path: pointer(appending: .field(uid: uid, pair: pair)), uid: uid,
                        className: archive.classes[classIndex].name, key: key)
        redactions.sites.insert(site)
    }

    /// What a schema says about one key object, worked out once per distinct key object.
    private mutating func resolveKey(_ keyIndex: Int, classIndex: Int, schema: Policy.ClassSchema) -> KeyResolution {
        let cacheKey = classIndex << 32 | keyIndex
        if let known = keyResolutions[cacheKey] { return known }
        var key = archive.plist.string(at: keyIndex) ?? ""
        if key.hasPrefix("$$") { key.removeFirst() }
        let requiredSlot = schema.required.firstIndex(of: key) ?? -1
        let resolution: KeyResolution
        if let declared = schema.keys[key] {
            let schemaKey = SchemaKey(classIndex: classIndex, key: key)
            let entry = schemaKeyEntries[schemaKey] ?? table.register(declared)
            schemaKeyEntries[schemaKey] = entry
            resolution = KeyResolution(kind: .entry(entry), requiredSlot: requiredSlot)
        } else {
            resolution = KeyResolution(kind: schema.unknownKeys == .reject ? .rejected : .unconstrained, requiredSlot: requiredSlot)
        }
        keyResolutions[cacheKey] = resolution
        return resolution
    }

    private mutating func expandFoundation(_ uid: Int, shape: FoundationShape, into edges: inout [Edge]) {
        let plist = archive.plist
        let index = archive.plistIndex(of: uid)
        switch shape {
        case .array, .set, .orderedSet:
            // Elements the site check already faulted are redacted, not walked: their contents
            // are nobody's business once the element itself is refused.
            for (position, element) in (archive.collectionElements(uid) ?? []).enumerated()
            where redactions.sites.isEmpty || !redactions.sites.contains(element.site) {
                edges.append(Edge(target: element.target, site: element.site, expectation: .unchecked, component: .index(position)))
            }
        case .dictionary:
            // `shape(of:)` guaranteed both arrays exist and have equal lengths.
            guard let keyPair = plist.dictionaryPairIndex(index, forKey: "NS.keys"), let keys = archive.uidArray(uid, "NS.keys"),
                  let valuePair = plist.dictionaryPairIndex(index, forKey: "NS.objects"), let values = archive.uidArray(uid, "NS.objects") else {
                return
            }
            let stringKeys = dictionaryHasStringKeys(uid)
            for position in 0 ..< keys.count
            where redactions.sites.isEmpty
                || !(redactions.sites.contains(ReferenceSite(uid: uid, pair: keyPair, element: position))
                    || redactions.sites.contains(ReferenceSite(uid: uid, pair: valuePair, element: position))) {
                let keyUID = Int(plist[Int(keys[keys.startIndex + position])].first)
                edges.append(Edge(target: keyUID, site: ReferenceSite(uid: uid, pair: keyPair, element: position),
                                  expectation: .unchecked, component: stringKeys ? .none : .pairKey(position)))
                edges.append(Edge(target: Int(plist[Int(values[values.startIndex + position])].first),
                                  site: ReferenceSite(uid: uid, pair: valuePair, element: position), expectation: .unchecked,
                                  component: stringKeys ? .dictionaryKey(keyUID: keyUID) : .pairValue(position)))
            }
        default:
            for (position, field) in shape.referenceFields.enumerated() {
                guard let pair = plist.dictionaryPairIndex(index, forKey: field.key),
                      let target = archive.referencedUID(plist.dictionaryValue(index, pair: pair)) else { continue }
                edges.append(Edge(target: target, site: ReferenceSite(uid: uid, pair: pair),
                                  expectation: .entry(table.internalEntry(shape, field: position)),
                                  component: field.jsonName.map { .name($0) } ?? .none))
            }
        }
    }
}
