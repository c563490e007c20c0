import ArchiveGateCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `POST /v1/inspect?mode=plain|typed&nested=true|false`: what the inspector page shows for an upload, in one answer —
/// the validation report and the JSON:
///
///     {"json": <the JSON>, "report": <ValidationReport>}     X-ArchiveGate-JSON-Length: <bytes of json>
///
/// When the policy rejects the archive the JSON is still rendered, with every violating subtree
/// replaced by null exactly as a `redact` policy renders it: the page can show where a violation
/// sits without ever showing what the policy refused. `json` is embedded byte for byte (never
/// re-encoded); the length header lets a client cut it out exactly (128-bit integers, key order).
/// Malformed archives and exceeded limits are the same problems as for `/v1/convert`; `nested=true`
/// decodes NSData holding a keyed archive in place, as `/v1/convert?nested=true` does.
struct InspectController {
    typealias Context = ArchiveRequestContext
    let metrics: ServerMetrics

    func register(on group: RouterGroup<Context>) {
        group.post("inspect", use: inspect)
    }

    @Sendable func inspect(_ request: Request, context: Context) async throws -> Response {
        let tenant = try context.requireTenant()
        let mode = try Context.outputMode(request)
        var inspector = try Context.inspector(tenant, request)
        inspector.policy.onViolation = .redact
        let bytes = try await ArchiveBody.read(request, tenant: tenant, lease: context.lease)
        context.recordArchive(bytes: bytes.count, tenant: tenant, metrics: metrics)

        let inspection = try await context.pipeline.convert(bytes, mode: mode, with: inspector)
        context.record(inspection.report, tenant: tenant, metrics: metrics)

        let json = inspection.json ?? Array("null".utf8)
        var body = Array(#"{"json":"#.utf8)
        body.reserveCapacity(json.count + 4096)
        body.append(contentsOf: json)
        body.append(contentsOf: Array(#","report":"#.utf8))
        body.append(contentsOf: inspection.report.json)
        body.append(UInt8(ascii: "}"))
        let headers: HTTPFields = [
            .archiveGateJSONLength: String(json.count),
            .archiveGateViolations: String(inspection.report.violations.count),
        ]
        return .json(VerdictStatus.status(inspection.report, at: .report), body, headers: headers)
    }
}

extension HTTPField.Name {
    /// `POST /v1/inspect`: how many bytes the `json` member has (it starts at byte 8 of the body).
    static let archiveGateJSONLength = HTTPField.Name("X-ArchiveGate-JSON-Length")!
}
