import ArchiveGateCore
import ArchiveGateStore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `/v1/archives`: stored results, each visible to its own tenant only.
///
///     POST   /v1/archives?mode=plain|typed&sanitize=true|false&name=<file name>
///                                           201 result + Location (200 for an idempotent re-upload)
///     GET    /v1/archives?limit=&cursor=    200 page of the tenant's results, newest first
///     GET    /v1/archives/{id}              200 result (metadata + report)
///     GET    /v1/archives/{id}/json         200 the stored JSON as stored; ETag, If-None-Match → 304
///     GET    /v1/archives/{id}/archive      200 the sanitized archive (`?sanitize=true`); ETag, 304
///     DELETE /v1/archives/{id}              204
///
/// An unknown id, an expired result and another tenant's result all answer the same 404.
struct ResultsController {
    typealias Context = ArchiveRequestContext
    /// Page size of `GET /v1/archives` without `limit`.
    static let defaultPageSize = 20

    let recorder: ResultRecorder
    let maxPageSize: Int

    func register(on group: RouterGroup<Context>) {
        let archives = group.group("archives")
        archives.post(use: create)
        archives.get(use: list)
        archives.get(":id", use: show)
        archives.get(":id/json", use: json)
        archives.get(":id/archive", use: archive)
        archives.delete(":id", use: delete)
    }

    @Sendable func create(_ request: Request, context: Context) async throws -> Response {
        let tenant = try context.requireTenant()
        _ = try recorder.requireStore()
        let mode = try Context.outputMode(request)
        let sanitize: Bool
        switch request.uri.queryParameters["sanitize"].map(String.init) {
        case nil, "false": sanitize = false
        case "true": sanitize = true
        case let other?: throw ProblemError.invalidRequest("sanitize is 'true' or 'false', not '\(other)'.")
        }
        let name = try Self.uploadName(request)
        let bytes = try await ArchiveBody.read(request, tenant: tenant, lease: context.lease)
        context.recordArchive(bytes: bytes.count, tenant: tenant, metrics: recorder.metrics)
        return try await recorder.record(bytes, source: .upload, mode: mode, sanitize: sanitize, name: name, tenant: tenant, context: context)
    }

    /// `?name=` (percent-encoded UTF-8): the file name listings show for the result; nil without one.
    static func uploadName(_ request: Request) throws -> String? {
        guard let text = request.uri.queryParameters["name"].map(String.init) else { return nil }
        guard NewResult.isValidName(text) else {
            throw ProblemError.invalidRequest("name is 1 to \(NewResult.maxNameBytes) UTF-8 bytes without control characters.")
        }
        return text
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let tenant = try context.requireTenant()
        let store = try recorder.requireStore()
        var limit = Self.defaultPageSize
        if let text = request.uri.queryParameters["limit"] {
            guard let value = Int(String(text)), value >= 1 else {
                throw ProblemError.invalidRequest("limit is a whole number from 1 to \(maxPageSize), not '\(text)'.")
            }
            limit = min(value, maxPageSize)
        }
        var cursor: ResultCursor?
        if let text = request.uri.queryParameters["cursor"] {
            cursor = try ResultCursor(String(text))
        }
        let page = try await recorder.measured("list") { [cursor, limit] in
            try await store.list(tenant: tenant.id, limit: limit, cursor: cursor)
        }
        return .json(.ok, ResultDocument.page(page))
    }

    /// Metadata and report; the stored JSON is not read.
    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let report = try await find(context, "report") { store, tenant, id in try await store.report(tenant: tenant, id: id) }
        return .json(.ok, ResultDocument.result(report))
    }

    /// The converted JSON exactly as stored; results never change, so the id is a strong ETag.
    /// The metadata is read first (columns only), so a 304 never reads the document.
    @Sendable func json(_ request: Request, context: Context) async throws -> Response {
        let summary = try await find(context, "summary") { store, tenant, id in try await store.summary(tenant: tenant, id: id) }
        guard summary.hasConvertedJSON else { throw ProblemError.resultHasNoJSON }
        let (headers, notModified) = Self.revalidation(request, etag: summary.etag)
        if let notModified { return notModified }
        // Deleted or expired between the two reads: the same 404 as before.
        let result = try await find(context, "get") { store, tenant, id in try await store.get(tenant: tenant, id: id) }
        guard let json = result.convertedJSON else { throw ProblemError.resultHasNoJSON }
        return .json(.ok, json, headers: headers)
    }

    /// The sanitized archive exactly as stored, like ``json(_:context:)``: metadata first (columns
    /// only), so a 404 `result.no_archive` and a 304 never read the archive.
    @Sendable func archive(_ request: Request, context: Context) async throws -> Response {
        let summary = try await find(context, "summary") { store, tenant, id in try await store.summary(tenant: tenant, id: id) }
        guard summary.hasSanitizedArchive else { throw ProblemError.resultHasNoArchive }
        let (headers, notModified) = Self.revalidation(request, etag: summary.sanitizedArchiveETag)
        if let notModified { return notModified }
        // Deleted or expired between the two reads: the same 404 as before.
        let archive = try await find(context, "archive") { store, tenant, id in try await store.sanitizedArchive(tenant: tenant, id: id) }
        var responseHeaders = headers
        responseHeaders[.contentType] = "application/octet-stream"
        return Response(status: .ok, headers: responseHeaders, body: .init(byteBuffer: ByteBuffer(bytes: archive)))
    }

    @Sendable func delete(_ request: Request, context: Context) async throws -> Response {
        let tenant = try context.requireTenant()
        let store = try recorder.requireStore()
        let id = try context.parameters.require("id")
        let deleted = try await recorder.measured("delete") { try await store.delete(tenant: tenant.id, id: id) }
        guard deleted else { throw ProblemError.resultNotFound }
        return Response(status: .noContent)
    }

    /// A stored body's cache headers (its strong `etag`; revalidated on every use, since results
    /// never change but may be deleted) and, when the request's If-None-Match matches, the 304 to
    /// answer instead of the body.
    private static func revalidation(_ request: Request, etag: String) -> (headers: HTTPFields, notModified: Response?) {
        let headers: HTTPFields = [.eTag: etag, .cacheControl: "private, max-age=0, must-revalidate"]
        guard let condition = request.headers[.ifNoneMatch], EntityTag.ifNoneMatch(condition, matches: etag) else {
            return (headers, nil)
        }
        return (headers, Response(status: .notModified, headers: headers))
    }

    /// The tenant's result named by the path's id, read by `read`; 404 when there is none.
    private func find<Found: Sendable>(
        _ context: Context, _ operation: String,
        _ read: @Sendable (any ResultStore, String, String) async throws -> Found?
    ) async throws -> Found {
        let tenant = try context.requireTenant()
        let store = try recorder.requireStore()
        let id = try context.parameters.require("id")
        guard let found = try await recorder.measured(operation, { try await read(store, tenant.id, id) }) else {
            throw ProblemError.resultNotFound
        }
        return found
    }
}
