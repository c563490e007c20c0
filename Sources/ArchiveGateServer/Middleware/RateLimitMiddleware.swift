import Hummingbird

/// The tenant's token bucket: over it → 429 with `Retry-After`. Sits after authentication, so an
/// unknown key cannot drain a real tenant's budget.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ArchiveRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let tenant = context.tenant, case .limited(let retryAfter) = tenant.rateLimiter.take() {
            throw ProblemError.rateLimited(retryAfterSeconds: retryAfter)
        }
        return try await next(request, context)
    }
}
