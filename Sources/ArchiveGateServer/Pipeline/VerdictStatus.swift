import ArchiveGateCore
import HTTPTypes

/// The one mapping from the core's `Verdict` to an HTTP status (docs/API.md "Verdicts over HTTP").
/// Inputs the core could not evaluate never reach it: the core throws, and `Problems/` maps the
/// error (`malformed` → 422 with its code; a limit, `inconclusive` → 413/422 with its code; a plain
/// property list → 422 `archive.not_a_keyed_archive`).
///
///     door                                 accepted  acceptedWithFindings  redacted  rejected  inconclusive
///     report  validate, fetch, inspect     200       200                   200       200       200
///     content convert                      200       200 (JSON shown)      200       422       200 (JSON shown)
///     content sanitize                     200       422                   200       422       422
///     content encode                       200       200 (archive written) —         422       422
///     stored  archives, fetch "store"      201 new / 200 existing, whatever the verdict
///
/// A report door's request succeeded whatever the archive's verdict, which is in the body
/// (`verdict`, `valid`). A content door answers 200 only with content the verdict released (the
/// core decides: `ArchiveConversion.rendersJSON`, `ArchiveSanitizer`); otherwise 422
/// `policy.rejected` with the report's violations.
enum VerdictStatus {
    /// Where the verdict is answered.
    enum Door {
        case report
        case stored(created: Bool)
    }

    /// The status for `report` at a report or stored door.
    static func status(_ report: ValidationReport, at door: Door) -> HTTPResponse.Status {
        switch door {
        case .report: .ok
        case .stored(let created): created ? .created : .ok
        }
    }

    /// A content door: the status and the content the verdict released, or the problem that
    /// refuses it (nil content: the verdict released none), labelled as `label` does.
    static func content<Content>(_ report: ValidationReport, _ content: Content?) throws(ProblemError) -> (HTTPResponse.Status, Content) {
        guard let content else {
            var problem = ProblemError.policyRejected(report)
            label(&problem.headers, report)
            throw problem
        }
        return (.ok, content)
    }

    /// A content door's headers, whose body is the content, not the report: `X-ArchiveGate-Verdict`
    /// (the verdict's name) and `X-ArchiveGate-Violations` (how many violations; under `redact`, how
    /// many subtrees were cut out).
    static func label(_ headers: inout HTTPFields, _ report: ValidationReport) {
        headers[.archiveGateVerdict] = report.verdict.name
        headers[.archiveGateViolations] = String(report.violations.count)
    }
}
