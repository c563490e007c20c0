import Foundation
import Hummingbird
import NIOCore

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
    /// This request's share of the memory budget, set by `MemoryBudgetMiddleware` on `/v1` POSTs.
    var memoryLease: MemoryLease?
    /// The connection the request came on (`cancellingOnDisconnect` watches it).
    let channel: any Channel
    /// The output-to-archive cap (`memory.amplificationFactor`), set with the lease.
    var amplificationCap = AmplificationCap(factor: ConfigurationDefaults.memoryAmplificationFactor.defaultValue)

    /// The lease, or an untracked one where no budget applies (never on `/v1` POSTs).
    var lease: MemoryLease { memoryLease ?? MemoryLease.untracked }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        trace = RequestTrace()
    }

    /// Sorted keys: JSON key order is otherwise not stable on Linux.
    public var responseEncoder: JSONEncoder { JSONEncoder.sorted }
}
