/// Violations, redactions, pointers and the final report.
extension PolicyEvaluator {
    /// A violation at a reference site; a site that is an object's field names its key.
    mutating func record(_ code: ViolationCode, _ message: String, at edge: Edge, uid: Int?, className: String?) {
        var key: String?
        switch edge.component {
        case .field(let owner, let pair), .fieldElement(let owner, let pair, _): key = archive.userKey(owner, pair: pair)
        default: key = nil
        }
        appendViolation(code, message, path: pointer(appending: edge.component), uid: uid, className: className, key: key)
    }

    /// A violation (policy codes and the archive's shape codes).
    mutating func appendViolation(_ code: ViolationCode, _ message: String, path: String, uid: Int?,
                                  className: String?, key: String?) {
        violationCount += 1
        guard violations.count < policy.limits.maxViolations else { return }
        violations.append(.init(code: code, message: message, path: path, uid: uid, className: className, key: key))
    }

    mutating func redact(_ edge: Edge) {
        if let site = edge.site { redactions.sites.insert(site) } else if edge.topIndex >= 0 { redactions.topNames.insert(archive.top[edge.topIndex].name) }
    }

    mutating func redactObject(_ uid: Int) { redactions.objects.insert(uid) }

    /// The JSON pointer of the current path, extended by one component; built only for violations.
    func pointer(appending component: PathComponent = .none) -> String {
        var result = ""
        for part in path { result += part.token(in: archive) }
        return result + component.token(in: archive)
    }

    func makeReport() -> ValidationReport {
        var counts = Array(repeating: 0, count: archive.classes.count)
        for code in archive.entries.codes where code >= 0 { counts[Int(code)] += 1 }
        var byName: [String: ValidationReport.ClassEntry] = [:]
        let admissions = admissionNames()
        // Class-table order: an inline scalar and a class record may share a name (NSData); the first
        // one's claimed chain must win every time, and Dictionary iteration order varies per instance.
        for (index, count) in counts.enumerated() where count > 0 {
            let archiveClass = archive.classes[index]
            if var existing = byName[archiveClass.name] {
                existing.count += count
                byName[archiveClass.name] = existing
            } else {
                byName[archiveClass.name] = .init(name: archiveClass.name, count: count,
                                                  allowed: policy.mentions(archiveClass.name),
                                                  claimedClasses: archiveClass.claimedChain,
                                                  admittedBy: admissions[archiveClass.name].map { $0.sorted() } ?? [])
            }
        }
        let verdict = Verdict(violations: violationCount, unacknowledgedFindings: danger.unacknowledgedCount,
                              undecodedNestedArchives: danger.undecodedNestedArchives,
                              unaccountedByteOffset: archive.plist.unaccountedByteOffset,
                              redacts: policy.onViolation == .redact, inspection: !policy.rejectsDanger)
        var report = ValidationReport(verdict: verdict, policy: policy.name, format: archive.plist.format,
                                objectCount: archive.objectCount,
                                classes: byName.values.sorted { $0.name < $1.name },
                                violations: violations, violationsTruncated: violationCount > violations.count,
                                limits: policy.limits)
        report.findings = danger.findings
        report.findingsTruncated = danger.findingCount > danger.findings.count
        return report
    }
}
