import ArchiveGateStore
import HTTPTypes

/// `/v1/archives` problems.
extension ProblemError {
    /// Unknown id, another tenant's id and an expired result all get this very document (only the
    /// request id differs), so a tenant cannot learn whether someone else's id exists.
    static let resultNotFound = ProblemError(.notFound, code: "result.not_found", title: "Not Found",
                                             detail: "No stored result with this id.")

    /// The result exists but the policy rejected its archive, so only its report was stored.
    static let resultHasNoJSON = ProblemError(
        .notFound, code: "result.no_json", title: "Not Found",
        detail: "The policy rejected this archive, so no JSON was stored; GET the result itself for its report.")

    static let storeDisabled = ProblemError(
        .serviceUnavailable, code: "store.disabled", title: "Service Unavailable",
        detail: "This server runs without a result store (store.enabled is false).")

    /// Maps a store failure: contention → 503 + Retry-After (the client may retry), a bad cursor →
    /// 400, anything else → 500 with the cause in the log only.
    static func storeFailed(_ error: ResultStoreError) -> ProblemError {
        switch error.code {
        case .invalidCursor:
            return ProblemError(.badRequest, code: "request.invalid_cursor", title: "Bad Request",
                                detail: "The cursor is not one this server issued; start again without it.")
        case .quotaExceeded:
            return ProblemError(.contentTooLarge, code: "store.quota_exceeded", title: "Content Too Large",
                                detail: "Storing this result would exceed the tenant's storage quota; delete results or wait for them to expire.")
        case .unavailable:
            var headers = HTTPFields()
            headers[.retryAfter] = "5"
            return ProblemError(.serviceUnavailable, code: "store.unavailable", title: "Service Unavailable",
                                detail: "The result store cannot be reached; retry after 5 s.", headers: headers)
        case .busy, .closed:
            var headers = HTTPFields()
            headers[.retryAfter] = "1"
            return ProblemError(.serviceUnavailable, code: "store.unavailable", title: "Service Unavailable",
                                detail: "The result store is busy or shutting down; retry after 1 s.", headers: headers)
        default:
            return ProblemError(.internalServerError, code: "store.failure", title: "Internal Server Error",
                                detail: "The result store failed; the request id is in the log.")
        }
    }
}
