import Foundation
import Hummingbird

/// The per-request context: Hummingbird's core storage plus what our middleware establishes.
///
/// Middleware receive the context by value, so what an inner layer learns (the tenant, the
/// violation codes) reaches the outer access log through `trace`, a shared reference.
public struct ArchiveRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The `X-Request-Id` of this request (taken from the client when sane, else generated).
    public var requestId: String = ""
    /// Set by `AuthenticationMiddleware` on `/v1` routes.
    public var tenant: Tenant?
    /// What the access log and metrics report about this request.
    public let trace: RequestTrace

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        trace = RequestTrace()
    }

    /// Sorted keys: JSON key order is otherwise not stable on Linux.
    public var responseEncoder: JSONEncoder { JSONEncoder.sorted }
}
