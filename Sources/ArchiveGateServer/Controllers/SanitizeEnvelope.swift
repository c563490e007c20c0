import ArchiveGateCore
import Foundation

/// The body of `POST /v1/sanitize?envelope=json`: the sanitized archive, the report it was
/// sanitized under, and (kept from the first version of the envelope) the verdict and violations
/// beside it — all written by the core's one report writer (`ValidationReport+JSON`).
///
///     {"archive":"<base64>","format":"binary","report":{…},"verdict":"redacted","violations":[…],"violationsTruncated":false}
///
/// JSON rather than `multipart/mixed`: every client already parses JSON and decodes base64 with
/// its standard library, while multipart *responses* need a parser few HTTP clients ship (curl,
/// fetch, URLSession, requests and AsyncHTTPClient have none), and a boundary that must never occur
/// in a binary archive. The cost is a third more bytes on the wire, bounded by the policy's
/// `maxOutputBytes`.
enum SanitizeEnvelope {
    /// The envelope for `archive` (standard base64 with padding) written in `format` under `report`.
    static func json(archive: [UInt8], format: PropertyList.Format, report: ValidationReport) -> [UInt8] {
        let encoded = Data(archive).base64EncodedString()
        var json = JSONDocumentWriter(capacity: encoded.utf8.count + 1024 + 256 * report.violations.count)
        json.raw("{\"archive\":")
        json.string(encoded)
        json.raw(",\"format\":")
        json.string(format.rawValue)
        json.raw(",\"report\":")
        report.write(to: &json)
        report.verdict.writeMembers(to: &json)
        report.writeViolationMembers(to: &json)
        json.raw("}")
        return json.bytes
    }
}
