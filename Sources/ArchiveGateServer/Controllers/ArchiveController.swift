import ArchiveGateCore
import Foundation
import HTTPTypes
import Hummingbird

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
        let tenant = try requireTenant(context)
        let bytes = try await ArchiveBody.read(request, tenant: tenant)
        record(bytes: bytes.count, tenant: tenant, context: context)
        let report = try tenant.inspector.validate(bytes)
        record(report, tenant: tenant, context: context)
        return try json(status: .ok, body: JSONEncoder.sorted.encode(report))
    }

    /// 200 with the JSON (plain or typed); 422 `policy.rejected` with the violations when the policy
    /// rejects. A `redact` policy answers 200 with the violating subtrees nulled and
    /// `X-ArchiveGate-Violations` > 0.
    @Sendable func convert(_ request: Request, context: Context) async throws -> Response {
        let tenant = try requireTenant(context)
        let modeName = request.uri.queryParameters["mode"].map(String.init) ?? "plain"
        guard let mode = OutputMode(rawValue: modeName) else {
            throw ProblemError.invalidRequest("mode is 'plain' or 'typed', not '\(modeName)'.")
        }
        let bytes = try await ArchiveBody.read(request, tenant: tenant)
        record(bytes: bytes.count, tenant: tenant, context: context)
        let inspection = try tenant.inspector.convert(bytes, mode: mode)
        record(inspection.report, tenant: tenant, context: context)
        guard let output = inspection.json else {
            throw ProblemError.policyRejected(inspection.report)
        }
        var response = json(status: .ok, body: output)
        response.headers[.archiveGateViolations] = String(inspection.report.violations.count)
        return response
    }

    private func requireTenant(_ context: Context) throws -> Tenant {
        // AuthenticationMiddleware guards the group; reaching here without a tenant is a wiring bug.
        guard let tenant = context.tenant else { throw ProblemError.unauthorized(presentedKey: false) }
        return tenant
    }

    private func record(bytes: Int, tenant: Tenant, context: Context) {
        metrics.recordArchive(bytes: bytes, tenant: tenant.id)
        context.trace.update { $0.archiveBytes = bytes }
    }

    private func record(_ report: ValidationReport, tenant: Tenant, context: Context) {
        let codes = report.violations.map(\.code)
        metrics.recordViolations(codes, tenant: tenant.id)
        context.trace.update { $0.violationCodes = Array(Set(codes)).sorted() }
    }

    private func json(status: HTTPResponse.Status, body: some Sequence<UInt8>) -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension JSONEncoder {
    /// Sorted keys: Linux's key order is not stable, and reports must be deterministic.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension HTTPField.Name {
    /// How many violations a converted archive had (non-zero only under a `redact` policy).
    static let archiveGateViolations = HTTPField.Name("X-ArchiveGate-Violations")!
}
