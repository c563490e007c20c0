import ArchiveGateCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `POST /v1/encode` and `POST /v1/sanitize`: archives ArchiveGate writes itself.
///
/// - encode: typed JSON (`application/json`, as `/v1/convert?mode=typed` answers) → 200 with the
///   archive (`application/octet-stream`, or `application/x-plist` XML with `?format=xml`); bad JSON
///   → 422 with the encode error's code and JSON pointer; over the tenant's limits → 413/422.
/// - sanitize: an archive, decoded under the tenant's policy → 200 with a freshly written canonical
///   archive and `X-ArchiveGate-Violations` (the redacted count under `redact`), or 422
///   `policy.rejected` exactly as `/v1/convert` answers; with `?envelope=json` the 200 is
///   `application/json` holding the archive (base64) and the violations (`SanitizeEnvelope`).
struct WriteController {
    typealias Context = ArchiveRequestContext
    let metrics: ServerMetrics

    func register(on group: RouterGroup<Context>) {
        group.post("encode", use: encode)
        group.post("sanitize", use: sanitize)
    }

    @Sendable func encode(_ request: Request, context: Context) async throws -> Response {
        let tenant = try context.requireTenant()
        let format = try Self.format(request)
        try Context.requireMediaType(request, in: ["application/json"], named: "application/json (typed JSON)")
        let limits = tenant.inspector.policy.limits
        let limit = min(tenant.maxBodyBytes, limits.maxInputBytes)
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw ProblemError.bodyTooLarge(limit: limit)
        }
        let json: [UInt8]
        do {
            json = Array(buffer: try await request.body.collect(upTo: limit))
        } catch {
            throw ProblemError.bodyTooLarge(limit: limit)
        }
        context.recordArchive(bytes: json.count, tenant: tenant, metrics: metrics)
        do {
            let archive = try await DecodeExecutor.run(bytes: json.count) { try ArchiveEncoder(limits: limits).encode(json, format: format) }
            metrics.recordWrite("encode", outcome: "ok", tenant: tenant.id)
            return Self.archiveResponse(archive, format: format)
        } catch let error as EncodeError {
            metrics.recordWrite("encode", outcome: error.code.rawValue, tenant: tenant.id)
            throw error
        }
    }

    @Sendable func sanitize(_ request: Request, context: Context) async throws -> Response {
        let tenant = try context.requireTenant()
        let format = try Self.format(request)
        let enveloped: Bool
        switch request.uri.queryParameters["envelope"].map(String.init) {
        case nil, "none": enveloped = false
        case "json": enveloped = true
        case let other?: throw ProblemError.invalidRequest("envelope is 'json' or 'none', not '\(other)'.")
        }
        let bytes = try await ArchiveBody.read(request, tenant: tenant, lease: context.lease)
        context.recordArchive(bytes: bytes.count, tenant: tenant, metrics: metrics)
        let sanitizer = ArchiveSanitizer(inspector: tenant.inspector)
        let result = try await DecodeExecutor.run(bytes: bytes.count) { try sanitizer.sanitize(bytes, format: format) }
        context.record(result.report, tenant: tenant, metrics: metrics)
        guard let archive = result.archive else {
            metrics.recordWrite("sanitize", outcome: "rejected", tenant: tenant.id)
            throw ProblemError.policyRejected(result.report)
        }
        metrics.recordWrite("sanitize", outcome: result.report.violations.isEmpty ? "ok" : "redacted", tenant: tenant.id)
        var response = enveloped
            ? Response.json(.ok, Array(try JSONEncoder.sorted.encode(SanitizeEnvelope(archive: archive, format: format, report: result.report))))
            : Self.archiveResponse(archive, format: format)
        response.headers[.archiveGateViolations] = String(result.report.violations.count)
        return response
    }

    private static func format(_ request: Request) throws -> PropertyList.Format {
        let name = request.uri.queryParameters["format"].map(String.init) ?? "binary"
        guard let format = PropertyList.Format(rawValue: name) else {
            throw ProblemError.invalidRequest("format is 'binary' or 'xml', not '\(name)'.")
        }
        return format
    }

    private static func archiveResponse(_ archive: [UInt8], format: PropertyList.Format) -> Response {
        Response(status: .ok, headers: [.contentType: format == .xml ? "application/x-plist" : "application/octet-stream"],
                 body: .init(byteBuffer: ByteBuffer(bytes: archive)))
    }
}
