import ArchiveGateCore
import Foundation

/// The body of `POST /v1/sanitize?envelope=json`: the sanitized archive and the violations it was
/// sanitized for, in one JSON document.
///
/// JSON rather than `multipart/mixed`: every client already parses JSON and decodes base64 with
/// its standard library, while multipart *responses* need a parser few HTTP clients ship (curl,
/// fetch, URLSession, requests and AsyncHTTPClient have none), and a boundary that must never occur
/// in a binary archive. The cost is a third more bytes on the wire, bounded by the policy's
/// `maxOutputBytes`.
struct SanitizeEnvelope: Encodable {
    /// The archive, standard base64 with padding.
    var archive: String
    /// `binary` or `xml`, as asked with `?format=`.
    var format: PropertyList.Format
    /// The violations the policy found, as in the validation report (redacted under `redact`).
    var violations: [ValidationReport.Violation]
    /// True when the report stopped listing violations at the policy's cap.
    var violationsTruncated: Bool

    init(archive: [UInt8], format: PropertyList.Format, report: ValidationReport) {
        self.archive = Data(archive).base64EncodedString()
        self.format = format
        violations = report.violations
        violationsTruncated = report.violationsTruncated
    }
}
