import ArchiveGateCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The request plumbing every `/v1` handler shares, in one place: the tenant, the `mode` and
/// `nested` query parameters, what is counted in metrics and named in the access log, and the JSON
/// response.
extension ArchiveRequestContext {
    /// The authenticated tenant. `AuthenticationMiddleware` guards `/v1`; reaching a handler
    /// without one is a wiring bug, answered as unauthenticated rather than trapped.
    func requireTenant() throws -> Tenant {
        guard let tenant else { throw ProblemError.unauthorized(presentedKey: false) }
        return tenant
    }

    /// `?mode=plain|typed`; plain when absent.
    static func outputMode(_ request: Request) throws -> OutputMode {
        try outputMode(named: request.uri.queryParameters["mode"].map(String.init))
    }

    /// A mode by name (a query parameter or a request body's `mode`); plain when nil.
    static func outputMode(named name: String?) throws -> OutputMode {
        guard let name else { return .plain }
        guard let mode = OutputMode(rawValue: name) else {
            throw ProblemError.invalidRequest("mode is 'plain' or 'typed', not '\(name)'.")
        }
        return mode
    }

    /// Refuses a `Content-Type` whose media type (parameters aside, any case) is not one of
    /// `accepted` with 415; no `Content-Type` at all is accepted.
    static func requireMediaType(_ request: Request, in accepted: Set<String>, named acceptedNames: String) throws {
        guard let contentType = request.headers[.contentType] else { return }
        // The usual case, a bare accepted type, without Foundation's trimming (bridged per request).
        if accepted.contains(contentType) { return }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
        guard accepted.contains(mediaType) else { throw ProblemError.unsupportedMediaType(contentType, accepted: acceptedNames) }
    }

    /// The tenant's inspector, decoding nested archives when the request says `?nested=true`.
    static func inspector(_ tenant: Tenant, _ request: Request) throws -> ArchiveInspector {
        var inspector = tenant.inspector
        switch request.uri.queryParameters["nested"].map(String.init) {
        case nil, "false": break
        case "true": inspector.decodesNestedArchives = true
        case let other?: throw ProblemError.invalidRequest("nested is 'true' or 'false', not '\(other)'.")
        }
        return inspector
    }

    /// `archivegate_archive_bytes` and the access log's `archive_bytes`.
    func recordArchive(bytes: Int, tenant: Tenant, metrics: ServerMetrics) {
        metrics.recordArchive(bytes: bytes, tenant: tenant.id)
        trace.update { $0.archiveBytes = bytes }
    }

    /// A report's violations and danger findings: counted per code and tenant in metrics, named in
    /// the access log.
    func record(_ report: ValidationReport, tenant: Tenant, metrics: ServerMetrics) {
        let codes = report.violations.map(\.code.rawValue)
        metrics.recordViolations(codes, tenant: tenant.id)
        let findingCodes = report.findings.map(\.code.rawValue)
        metrics.recordFindings(findingCodes, tenant: tenant.id)
        trace.update {
            $0.violationCodes = Array(Set(codes)).sorted()
            $0.findingCodes = Array(Set(findingCodes)).sorted()
        }
    }
}

extension Response {
    /// An `application/json` response with `body` as its bytes.
    static func json(_ status: HTTPResponse.Status = .ok, _ body: some Sequence<UInt8>, headers: HTTPFields = [:]) -> Response {
        var fields: HTTPFields = [.contentType: "application/json"]
        fields.append(contentsOf: headers)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
