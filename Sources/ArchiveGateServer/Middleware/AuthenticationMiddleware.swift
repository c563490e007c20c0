import Foundation
import HTTPTypes
import Hummingbird

/// `Authorization: Bearer <key>` → the tenant, or 401 with `WWW-Authenticate`.
/// Keys are looked up by SHA-256 hash in constant time (`TenantRegistry.authenticate`).
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = ArchiveRequestContext
    let tenants: TenantRegistry

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else {
            throw ProblemError.unauthorized(presentedKey: false)
        }
        guard let key = Self.bearerToken(header), let tenant = tenants.authenticate(key: key) else {
            throw ProblemError.unauthorized(presentedKey: true)
        }
        var context = context
        context.tenant = tenant
        context.trace.update { $0.tenant = tenant.id }
        return try await next(request, context)
    }

    /// The token of a `Bearer` credential (scheme is case-insensitive, RFC 9110 §11.1).
    static func bearerToken(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
