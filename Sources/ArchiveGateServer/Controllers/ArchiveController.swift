import ArchiveGateCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `POST /v1/validate` and `POST /v1/convert`: the tenant's policy applied to an uploaded archive.
struct ArchiveController {
    typealias Context = ArchiveRequestContext
    let metrics: ServerMetrics

    func register(on group: RouterGroup<Context>) {
        group.post("validate", use: validate)
        group.post("convert", use: convert)
    }

    /// 200 with the report; `valid: false` is still a 200: the request succeeded, the archive did not.
    @Sendable func validate(_ request: Request, context: Context) async throws -> Response {
        let tenant = try context.requireTenant()
        let bytes = try await ArchiveBody.read(request, tenant: tenant, lease: context.lease)
        context.recordArchive(bytes: bytes.count, tenant: tenant, metrics: metrics)
        let inspector = try Context.inspector(tenant, request)
        let report = try await context.pipeline.validate(bytes, with: inspector)
        context.record(report, tenant: tenant, metrics: metrics)
        return .json(VerdictStatus.status(report, at: .report), report.json)
    }

    /// 200 with the JSON (plain or typed); 422 `policy.rejected` with the violations when the policy
    /// rejects. A `redact` policy answers 200 with the violating subtrees nulled and
    /// `X-ArchiveGate-Violations` > 0.
    @Sendable func convert(_ request: Request, context: Context) async throws -> Response {
        let tenant = try context.requireTenant()
        let mode = try Context.outputMode(request)
        let bytes = try await ArchiveBody.read(request, tenant: tenant, lease: context.lease)
        context.recordArchive(bytes: bytes.count, tenant: tenant, metrics: metrics)
        let inspector = try Context.inspector(tenant, request)
        let inspection = try await context.pipeline.convert(bytes, mode: mode, with: inspector)
        context.record(inspection.report, tenant: tenant, metrics: metrics)
        let (status, json) = try VerdictStatus.content(inspection.report, inspection.json)
        var response = Response.json(status, json)
        VerdictStatus.label(&response.headers, inspection.report)
        return response
    }
}

extension HTTPField.Name {
    /// How many violations a converted archive had (non-zero only under a `redact` policy).
    static let archiveGateViolations = HTTPField.Name("X-ArchiveGate-Violations")!
    /// The verdict (`Verdict.name`) of a content door's archive: convert, sanitize, encode (200 and 422).
    static let archiveGateVerdict = HTTPField.Name("X-ArchiveGate-Verdict")!
}
