/// How one object is expanded into the edges the walk follows, with the checks that concern the
/// object itself (key schema, required keys) rather than a site.
extension PolicyEvaluator {
    mutating func expand(_ uid: Int, into edges: inout [Edge]) throws(ArchiveError) {
        guard let archiveClass = archive.archiveClass(of: uid), !archiveClass.isInline else { return }
        if let shape = try archive.shape(of: uid) {
            try expandFoundation(uid, shape: shape, into: &edges)
        } else {
            expandCustom(uid, className: archiveClass.name, into: &edges)
        }
    }

    private mutating func expandCustom(_ uid: Int, className: String, into edges: inout [Edge]) {
        let plist = archive.plist
        let index = archive.plistIndex(of: uid)
        let schema = policy.classes[className]
        for pair in 0 ..< plist.count(of: index) where !archive.isClassPair(uid, pair: pair) {
            let value = plist.dictionaryValue(index, pair: pair)
            let site = ReferenceSite(uid: uid, pair: pair)
            var expectation = SiteExpectation.allowed
            if let schema {
                let key = archive.userKey(uid, pair: pair)
                if let declared = schema.keys[key] {
                    expectation = .explicit(declared)
                } else if schema.unknownKeys == .reject {
                    appendViolation(.unknownKey, "key '\(key)' is not in the schema of '\(className)'",
                                    path: pointer(appending: .field(uid: uid, pair: pair)), uid: uid,
                                    className: className, key: key)
                    redactions.sites.insert(site)
                    continue
                }
            }
            let kind = plist[value].kind
            if kind == .uid {
                edges.append(Edge(target: Int(plist[value].first), site: site, expectation: expectation,
                                  component: .field(uid: uid, pair: pair)))
                continue
            }
            if case .explicit(let declared) = expectation {
                let found = InlineKind(kind).map { "an inline \($0.rawValue)" } ?? "an inline \(kind)"
                if InlineKind(kind).map({ declared.accepted.inlineKinds.contains($0) }) != true {
                    let key = archive.userKey(uid, pair: pair)
                    appendViolation(.inlineTypeMismatch, "key '\(key)' expects \(declared.accepted.summary), found \(found)",
                                    path: pointer(appending: .field(uid: uid, pair: pair)), uid: uid,
                                    className: className, key: key)
                    redactions.sites.insert(site)
                }
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
        guard let schema, !schema.required.isEmpty else { return }
        for key in schema.required where !hasNonNilField(uid, userKey: key) {
            appendViolation(.missingRequiredKey, "'\(className)' requires key '\(key)'", path: pointer(), uid: uid,
                            className: className, key: key)
            redactObject(uid)
        }
    }

    private func hasNonNilField(_ uid: Int, userKey: String) -> Bool {
        let index = archive.plistIndex(of: uid)
        for pair in 0 ..< archive.plist.count(of: index) where archive.userKey(uid, pair: pair) == userKey {
            return archive.referencedUID(archive.plist.dictionaryValue(index, pair: pair)) != 0
        }
        return false
    }

    private mutating func expandFoundation(_ uid: Int, shape: FoundationShape, into edges: inout [Edge]) throws(ArchiveError) {
        let plist = archive.plist
        let index = archive.plistIndex(of: uid)
        switch shape {
        case .array, .set, .orderedSet:
            for (position, element) in (archive.collectionElements(uid) ?? []).enumerated() {
                edges.append(Edge(target: element.target, site: element.site, expectation: .unchecked, component: .index(position)))
            }
        case .dictionary:
            guard let keyPair = plist.dictionaryPairIndex(index, forKey: "NS.keys"), let keys = archive.uidArray(uid, "NS.keys"),
                  let valuePair = plist.dictionaryPairIndex(index, forKey: "NS.objects"), let values = archive.uidArray(uid, "NS.objects") else {
                throw malformed(uid, shape, "needs NS.keys and NS.objects arrays of UIDs")
            }
            let stringKeys = dictionaryHasStringKeys(uid)
            for position in 0 ..< keys.count {
                let keyUID = Int(plist[Int(keys[keys.startIndex + position])].first)
                edges.append(Edge(target: keyUID, site: ReferenceSite(uid: uid, pair: keyPair, element: position),
                                  expectation: .unchecked, component: stringKeys ? .none : .pairKey(position)))
                edges.append(Edge(target: Int(plist[Int(values[values.startIndex + position])].first),
                                  site: ReferenceSite(uid: uid, pair: valuePair, element: position), expectation: .unchecked,
                                  component: stringKeys ? .dictionaryKey(keyUID: keyUID) : .pairValue(position)))
            }
        default:
            for field in shape.referenceFields {
                guard let pair = plist.dictionaryPairIndex(index, forKey: field.key),
                      let target = archive.referencedUID(plist.dictionaryValue(index, pair: pair)) else { continue }
                edges.append(Edge(target: target, site: ReferenceSite(uid: uid, pair: pair), expectation: .internal(field.accepts),
                                  component: field.jsonName.map { .name($0) } ?? .none))
            }
        }
    }

    private func malformed(_ uid: Int, _ shape: FoundationShape, _ what: String) -> ArchiveError {
        let name = archive.archiveClass(of: uid)?.name ?? shape.rawValue
        return ArchiveError(.malformedFoundationObject, path: "/$objects/\(uid)", "\(name) \(what)")
    }
}
