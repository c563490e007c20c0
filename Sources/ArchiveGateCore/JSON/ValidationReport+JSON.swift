/// A `ValidationReport` as JSON — the one report writer every front end uses (HTTP bodies, CLI
/// reports, batch and scan records) — byte for byte what `JSONEncoder` with sorted keys writes
/// (absent optionals left out), written straight into bytes. Foundation's encoder boxes every value
/// through `Codable`, builds a tree, then sorts and serializes it: for a 1 KB archive that cost the
/// server as much CPU as validating the archive (docs/bench-notes/http.md). The core's
/// `JSONDocumentWriter` escapes strings as `JSONEncoder` does. `ReportJSONTests`
/// holds this writer to `JSONEncoder`'s bytes on reports whose every field is set, so a field added
/// to the report fails the test instead of going missing here.
extension ValidationReport {
    /// The report as one compact JSON object.
    public var json: [UInt8] {
        var json = JSONDocumentWriter(capacity: 640 + 128 * classes.count + 256 * (violations.count + findings.count))
        write(to: &json)
        return json.bytes
    }

    /// Appends the report as one JSON object (to embed it in a record).
    public func write(to json: inout JSONDocumentWriter) {
        let report = self
        json.raw("{\"classes\":")
        Self.writeArray(report.classes, to: &json) { Self.write($0, to: &$1) }
        json.raw(",\"dangerCatalogueVersion\":")
        json.integer(report.dangerCatalogueVersion)
        json.raw(",\"findings\":")
        Self.writeArray(report.findings, to: &json) { Self.write($0, to: &$1) }
        json.raw(",\"findingsTruncated\":")
        json.bool(report.findingsTruncated)
        json.raw(",\"format\":")
        json.string(report.format.rawValue)
        json.raw(",\"limits\":")
        Self.write(report.limits, to: &json)
        json.raw(",\"objectCount\":")
        json.integer(report.objectCount)
        json.raw(",\"policy\":")
        json.string(report.policy)
        json.raw(",\"valid\":")
        json.bool(report.valid)
        report.verdict.writeMembers(to: &json)
        writeViolationMembers(to: &json)
        json.raw("}")
    }

    /// `,"violations":[…],"violationsTruncated":<bool>`: the report's last two members, also for a
    /// document that carries them beside the report (the sanitize envelope).
    public func writeViolationMembers(to json: inout JSONDocumentWriter) {
        Self.writeViolationMembers(violations, truncated: violationsTruncated, to: &json)
    }

    /// `,"violations":[…],"violationsTruncated":<bool>` for `violations` (a `policy.rejected` problem document).
    public static func writeViolationMembers(_ violations: [Violation], truncated: Bool, to json: inout JSONDocumentWriter) {
        json.raw(",\"violations\":")
        writeArray(violations, to: &json) { write($0, to: &$1) }
        json.raw(",\"violationsTruncated\":")
        json.bool(truncated)
    }

    private static func write(_ entry: ValidationReport.ClassEntry, to json: inout JSONDocumentWriter) {
        json.raw("{\"admittedBy\":")
        writeArray(entry.admittedBy, to: &json) { $1.string($0) }
        json.raw(",\"allowed\":")
        json.bool(entry.allowed)
        json.raw(",\"claimedClasses\":")
        writeArray(entry.claimedClasses, to: &json) { $1.string($0) }
        json.raw(",\"count\":")
        json.integer(entry.count)
        json.raw(",\"name\":")
        json.string(entry.name)
        json.raw("}")
    }

    private static func write(_ violation: ValidationReport.Violation, to json: inout JSONDocumentWriter) {
        json.raw("{")
        if let className = violation.className {
            json.raw("\"class\":")
            json.string(className)
            json.raw(",")
        }
        json.raw("\"code\":")
        json.string(violation.code.rawValue)
        if let key = violation.key {
            json.raw(",\"key\":")
            json.string(key)
        }
        json.raw(",\"message\":")
        json.string(violation.message)
        json.raw(",\"path\":")
        json.string(violation.path)
        if let uid = violation.uid {
            json.raw(",\"uid\":")
            json.integer(uid)
        }
        json.raw("}")
    }

    private static func write(_ finding: ValidationReport.Finding, to json: inout JSONDocumentWriter) {
        // Members in key order; the optional ones (how the catalogue recognised the object and the
        // names it carries) only when present, as the Codable form leaves them out.
        json.raw("{\"acknowledged\":")
        json.bool(finding.acknowledged)
        json.raw(",\"class\":")
        json.string(finding.className)
        writeNames("classConstants", finding.classConstants, to: &json)
        json.raw(",\"code\":")
        json.string(finding.code.rawValue)
        writeNames("functions", finding.functions, to: &json)
        writeNames("keyPaths", finding.keyPaths, to: &json)
        if let matched = finding.matched {
            json.raw(",\"matched\":")
            json.string(matched)
        }
        json.raw(",\"path\":")
        json.string(finding.path)
        json.raw(",\"reason\":")
        json.string(finding.reason)
        json.raw(",\"reference\":")
        json.string(finding.reference)
        writeNames("selectors", finding.selectors, to: &json)
        if let via = finding.via {
            json.raw(",\"via\":")
            json.string(via.rawValue)
        }
        json.raw("}")
    }

    /// `,"member":["a","b"]`, or nothing when `names` is nil.
    private static func writeNames(_ member: String, _ names: [String]?, to json: inout JSONDocumentWriter) {
        guard let names else { return }
        json.raw(",\"\(member)\":[".utf8)
        for (index, name) in names.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(name)
        }
        json.raw("]")
    }

    /// Every limit `DecodeLimits.entries` names (the core's one list of them), in key order.
    private static func write(_ limits: DecodeLimits, to json: inout JSONDocumentWriter) {
        json.raw("{")
        for (index, entry) in limits.entries.sorted(by: { $0.name < $1.name }).enumerated() {
            if index > 0 { json.raw(",") }
            json.string(entry.name)
            json.raw(":")
            json.integer(entry.value)
        }
        json.raw("}")
    }

    /// `[e0,e1,…]`, each element written by `writeElement`.
    private static func writeArray<Element>(_ elements: [Element], to json: inout JSONDocumentWriter,
                                            _ writeElement: (Element, inout JSONDocumentWriter) -> Void) {
        json.raw("[")
        for (index, element) in elements.enumerated() {
            if index > 0 { json.raw(",") }
            writeElement(element, &json)
        }
        json.raw("]")
    }
}

extension Verdict {
    /// `,"verdict":"<name>"`, `,"verdictOffset":<byte>` when the reason points at a byte, and
    /// `,"verdictReason":"<code>"` when the verdict has one: the members a report or a record
    /// carries for its verdict (each follows a member already written), in key order.
    public func writeMembers(to json: inout JSONDocumentWriter) {
        json.raw(",\"verdict\":")
        json.string(name)
        if let offset {
            json.raw(",\"verdictOffset\":")
            json.integer(offset)
        }
        if let reason {
            json.raw(",\"verdictReason\":")
            json.string(reason)
        }
    }
}
