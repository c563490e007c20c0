import HTTPTypes

/// `POST /v1/fetch` problems of the server's own; the fetcher's errors map in
/// `FetchError+HTTPResponseError.swift`.
extension ProblemError {
    static func fetchConcurrencyLimited(limit: Int) -> ProblemError {
        .retryable(.fetchConcurrencyLimited, after: 1, detail: "The tenant already runs \(limit) fetches; retry after 1 s.")
    }
}
