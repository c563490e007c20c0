import Synchronization

/// The server's one memory budget: what request bodies in flight, gzip inflation, decoding and
/// response bytes may hold at once, across every tenant.
///
///     admit(tenant:)     a slot for one upload-like request (POST): over the server's cap → 503
///                        server.busy; over the tenant's cap or fair share of the slots
///                        (`UploadSlotShare`) → 429 tenant.busy
///     lease.reserve(n)   n more bytes for that request: past the server's budget → 503
///                        server.busy, past the tenant's share → 429 tenant.busy (both Retry-After)
///     lease.release()    everything back, once the response is written or the request failed
///
/// Accounting is an estimate of what the request's buffers hold (see `DecodeEstimate`), not a
/// measurement of the heap: it keeps one tenant, or many clients, from growing the process without
/// bound. The lock is held for a few additions only.
final class MemoryBudget: Sendable {
    /// The caps, resolved from `memory.*` (`MemorySettings`).
    struct Limits: Sendable, Hashable {
        var totalBytes: Int
        var tenantBytes: Int
        var maxUploads: Int
        var maxUploadsPerTenant: Int
        /// Tenants configured, for the fair share of upload slots (`UploadSlotShare`).
        var tenants: Int = 1

        /// How the upload slots are shared between tenants.
        var slotShare: UploadSlotShare {
            UploadSlotShare(maxUploads: maxUploads, maxUploadsPerTenant: maxUploadsPerTenant, tenants: tenants)
        }

        /// No limits: tests and tools that build an application without a budget.
        static let unlimited = Limits(totalBytes: .max, tenantBytes: .max, maxUploads: .max, maxUploadsPerTenant: .max)
    }

    /// What is held right now (metrics, tests).
    struct Usage: Sendable, Hashable {
        var bytes = 0
        var uploads = 0
        var tenantBytes: [String: Int] = [:]
        var tenantUploads: [String: Int] = [:]
    }

    /// Seconds a refused client is told to wait: the budget frees as soon as responses are written.
    static let retryAfterSeconds = 1

    let limits: Limits
    private let usage = Mutex(Usage())

    init(limits: Limits) {
        self.limits = limits
    }

    var current: Usage { usage.withLock { $0 } }

    /// A lease for one request of `tenant`, holding one upload slot and no bytes yet.
    func admit(tenant: String) throws(ProblemError) -> MemoryLease {
        let limits = self.limits
        let refusal: ProblemError? = usage.withLock { usage in
            if usage.uploads >= limits.maxUploads { return .serverBusy("\(limits.maxUploads) uploads are in progress") }
            if let detail = limits.slotShare.refusal(tenant: tenant, held: usage.tenantUploads, inUse: usage.uploads) {
                return .tenantBusy(detail)
            }
            usage.uploads += 1
            usage.tenantUploads[tenant, default: 0] += 1
            return nil
        }
        if let refusal { throw refusal }
        return MemoryLease(budget: self, tenant: tenant)
    }

    /// `bytes` more for `tenant`, or the problem that refuses them (nothing is then taken).
    fileprivate func take(_ bytes: Int, tenant: String) -> ProblemError? {
        let limits = self.limits
        return usage.withLock { usage in
            let tenantHeld = usage.tenantBytes[tenant, default: 0]
            // A share as large as the budget is the budget: its refusal is the server's (503).
            if limits.tenantBytes < limits.totalBytes, bytes > limits.tenantBytes - tenantHeld {
                return .tenantBusy("the tenant's requests in progress hold \(tenantHeld) of its \(limits.tenantBytes) bytes of server memory")
            }
            if bytes > limits.totalBytes - usage.bytes {
                return .serverBusy("requests in progress hold \(usage.bytes) of the \(limits.totalBytes) bytes of the memory budget")
            }
            usage.bytes += bytes
            usage.tenantBytes[tenant] = tenantHeld + bytes
            return nil
        }
    }

    fileprivate func give(bytes: Int, upload: Bool, tenant: String) {
        usage.withLock { usage in
            usage.bytes -= bytes
            let tenantLeft = usage.tenantBytes[tenant, default: 0] - bytes
            usage.tenantBytes[tenant] = tenantLeft > 0 ? tenantLeft : nil
            guard upload else { return }
            usage.uploads -= 1
            let uploadsLeft = usage.tenantUploads[tenant, default: 0] - 1
            usage.tenantUploads[tenant] = uploadsLeft > 0 ? uploadsLeft : nil
        }
    }
}

/// One request's share of the `MemoryBudget`: its upload slot and the bytes it reserved. Released
/// once (explicitly after the response is written, or when the last reference goes away).
final class MemoryLease: Sendable {
    private let budget: MemoryBudget
    let tenant: String
    private let state = Mutex((bytes: 0, open: true))

    fileprivate init(budget: MemoryBudget, tenant: String) {
        self.budget = budget
        self.tenant = tenant
    }

    /// Bytes this request holds now.
    var bytes: Int { state.withLock { $0.bytes } }

    /// Takes `bytes` more from the budget, or throws 503 `server.busy` / 429 `tenant.busy`.
    func reserve(_ bytes: Int) throws(ProblemError) {
        guard bytes > 0 else { return }
        if let refusal = budget.take(bytes, tenant: tenant) { throw refusal }
        let stillOpen = state.withLock { state in
            if state.open { state.bytes += bytes }
            return state.open
        }
        if !stillOpen { budget.give(bytes: bytes, upload: false, tenant: tenant) }
    }

    /// Gives back `bytes` of what this request holds (an estimate turned out larger than needed).
    func shrink(by bytes: Int) {
        let given = state.withLock { state in
            let given = state.open ? min(max(bytes, 0), state.bytes) : 0
            state.bytes -= given
            return given
        }
        if given > 0 { budget.give(bytes: given, upload: false, tenant: tenant) }
    }

    /// Gives everything back, the upload slot included. Idempotent.
    func release() {
        let held: Int? = state.withLock { state in
            guard state.open else { return nil }
            state.open = false
            defer { state.bytes = 0 }
            return state.bytes
        }
        if let held { budget.give(bytes: held, upload: true, tenant: tenant) }
    }

    deinit { release() }
}

extension MemoryLease {
    /// A lease on an unlimited budget, for code paths outside `MemoryBudgetMiddleware`.
    static let untracked: MemoryLease = {
        let budget = MemoryBudget(limits: .unlimited)
        // Admission cannot fail on an unlimited budget.
        return (try? budget.admit(tenant: "-")) ?? MemoryLease(budget: budget, tenant: "-")
    }()
}
