import ArchiveGateCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `POST /v1/encode` and `POST /v1/sanitize`: archives ArchiveGate writes itself.
///
/// - encode: typed JSON (`application/json`, as `/v1/convert?mode=typed` answers) → 200 with the
///   archive (`application/octet-stream`, or `application/x-plist` XML with `?format=xml`) when the
///   written archive's verdict under the tenant's policy releases it, else 422 `policy.rejected`
///   as sanitize answers (`X-ArchiveGate-Verdict` on both); bad JSON
///   → 422 with the encode error's code and JSON pointer; over the tenant's limits → 413/422; the
///   body is read as archive uploads are (`ArchiveBody`: gzip inflated, another encoding 415, a
///   body cut short 400).
///
/// Both run through `DecodePipeline` (budget reserved, output bounded while written).
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
        let limits = tenant.inspector.policy.limits
        // The same reader as archive uploads: gzip inflated, other encodings 415, a body cut short 400.
        let json = try await ArchiveBody.read(request, mediaTypes: ["application/json"], named: "application/json (typed JSON)",
                                              contentLimit: min(tenant.maxArchiveBytes, limits.maxInputBytes),
                                              tenant: tenant, lease: context.lease)
        context.recordArchive(bytes: json.count, tenant: tenant, metrics: metrics)
        do {
            let encoded = try await context.pipeline.encode(json, format: format, policy: tenant.inspector.policy)
            metrics.recordWrite("encode", outcome: encoded.releasedArchive == nil ? "rejected" : "ok", tenant: tenant.id)
            let (status, archive) = try VerdictStatus.content(encoded.report, encoded.releasedArchive)
            var response = Self.archiveResponse(archive, format: format, status: status)
            VerdictStatus.label(&response.headers, encoded.report)
            return response
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
        let result = try await context.pipeline.sanitize(bytes, format: format, with: tenant.inspector,
                                                         onDecode: { [metrics, id = tenant.id] in metrics.recordSanitizeDecode(tenant: id) })
        context.record(result.report, tenant: tenant, metrics: metrics)
        metrics.recordWrite("sanitize", outcome: result.archive == nil ? "rejected" : result.report.violations.isEmpty ? "ok" : "redacted",
                            tenant: tenant.id)
        let (status, archive) = try VerdictStatus.content(result.report, result.archive)
        var response = enveloped
            ? Response.json(status, SanitizeEnvelope.json(archive: archive, format: format, report: result.report))
            : Self.archiveResponse(archive, format: format, status: status)
        VerdictStatus.label(&response.headers, result.report)
        return response
    }

    private static func format(_ request: Request) throws -> PropertyList.Format {
        let name = request.uri.queryParameters["format"].map(String.init) ?? "binary"
        guard let format = PropertyList.Format(rawValue: name) else {
            throw ProblemError.invalidRequest("format is 'binary' or 'xml', not '\(name)'.")
        }
        return format
    }

    private static func archiveResponse(_ archive: [UInt8], format: PropertyList.Format, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: format == .xml ? "application/x-plist" : "application/octet-stream"],
                 body: .init(byteBuffer: ByteBuffer(bytes: archive)))
    }
}
