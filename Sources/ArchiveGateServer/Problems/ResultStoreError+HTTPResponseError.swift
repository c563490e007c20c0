import ArchiveGateStore
import HTTPTypes

/// The result store's errors as HTTP problems; the store knows nothing of HTTP, and this file is
/// the whole mapping: contention or an unreachable database → 503 + Retry-After (the client may
/// retry), a bad cursor → 400, the tenant's storage quota → 413, anything else → 500. The underlying message is logged (never shown to the client), except for
/// a bad cursor, which is the client's mistake.
extension ResultStoreError: ProblemRepresentable {
    public var problemError: ProblemError {
        switch code {
        case .invalidCursor:
            return ProblemError(.invalidCursor, detail: "The cursor is not one this server issued; start again without it.")
        case .quotaExceeded:
            return ProblemError(.storeQuotaExceeded,
                                detail: "Storing this result would exceed the tenant's storage quota; delete results or wait for them to expire.")
        case .unavailable:
            return .retryable(.storeUnavailable, after: 5, detail: "The result store cannot be reached; retry after 5 s.")
        case .busy, .closed:
            return .retryable(.storeUnavailable, after: 1, detail: "The result store is busy or shutting down; retry after 1 s.")
        default:
            return ProblemError(.storeFailure, detail: "The result store failed; the request id is in the log.")
        }
    }

    public var logsCause: Bool { code != .invalidCursor && code != .quotaExceeded }
}
