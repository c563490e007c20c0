/// `Codable` by hand only for the verdict: it is written as its name (`"verdict": "rejected"`) and,
/// when it has them, its reason (`"verdictReason"`) and byte offset (`"verdictOffset"`), and read
/// back from those with the report's own counts. Every other member is coded as the compiler would.
extension ValidationReport {
    enum CodingKeys: String, CodingKey {
        case verdict, verdictReason, verdictOffset, valid, policy, format, objectCount, classes, violations, violationsTruncated, limits,
             findings, findingsTruncated, dangerCatalogueVersion
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(verdict.name, forKey: .verdict)
        try container.encodeIfPresent(verdict.reason, forKey: .verdictReason)
        try container.encodeIfPresent(verdict.offset, forKey: .verdictOffset)
        try container.encode(valid, forKey: .valid)
        try container.encode(policy, forKey: .policy)
        try container.encode(format, forKey: .format)
        try container.encode(objectCount, forKey: .objectCount)
        try container.encode(classes, forKey: .classes)
        try container.encode(violations, forKey: .violations)
        try container.encode(violationsTruncated, forKey: .violationsTruncated)
        try container.encode(limits, forKey: .limits)
        try container.encode(findings, forKey: .findings)
        try container.encode(findingsTruncated, forKey: .findingsTruncated)
        try container.encode(dangerCatalogueVersion, forKey: .dangerCatalogueVersion)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let violations = try container.decode([Violation].self, forKey: .violations)
        let findings = try container.decodeIfPresent([Finding].self, forKey: .findings) ?? []
        let name = try container.decode(String.self, forKey: .verdict)
        let unacknowledged = findings.filter { !$0.acknowledged }.count
        let verdict: Verdict
        switch name {
        case "accepted": verdict = .accepted
        case "acceptedWithFindings": verdict = .acceptedWithFindings(findings: unacknowledged)
        case "redacted": verdict = .redacted(violations: violations.count + unacknowledged)
        case "rejected": verdict = .rejected(violations: violations.count + unacknowledged)
        case "inconclusive" where try container.decodeIfPresent(String.self, forKey: .verdictReason) == "danger.nested_archive":
            verdict = .inconclusive(.nestedArchiveNotDecoded)
        case "inconclusive" where try container.decodeIfPresent(String.self, forKey: .verdictReason) == "plist.unaccounted_bytes":
            verdict = .inconclusive(.unaccountedBytes(offset: try container.decode(Int.self, forKey: .verdictOffset)))
        default:
            throw DecodingError.dataCorruptedError(forKey: .verdict, in: container,
                                                   debugDescription: "'\(name)' is not the verdict of an evaluated archive")
        }
        self.init(verdict: verdict, policy: try container.decode(String.self, forKey: .policy),
                  format: try container.decode(PropertyList.Format.self, forKey: .format),
                  objectCount: try container.decode(Int.self, forKey: .objectCount),
                  classes: try container.decode([ClassEntry].self, forKey: .classes), violations: violations,
                  violationsTruncated: try container.decode(Bool.self, forKey: .violationsTruncated),
                  limits: try container.decode(DecodeLimits.self, forKey: .limits))
        self.findings = findings
        findingsTruncated = try container.decodeIfPresent(Bool.self, forKey: .findingsTruncated) ?? false
        if let version = try container.decodeIfPresent(Int.self, forKey: .dangerCatalogueVersion) { dangerCatalogueVersion = version }
    }
}
