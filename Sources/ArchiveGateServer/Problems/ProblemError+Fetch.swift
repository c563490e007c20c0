import HTTPTypes

/// `POST /v1/fetch` problems of the server's own; the fetcher's errors map in
/// `FetchError+HTTPResponseError.swift`.
extension ProblemError {
    static func fetchConcurrencyLimited(limit: Int) -> ProblemError {
        var headers = HTTPFields()
        headers[.retryAfter] = "1"
        return ProblemError(.fetchConcurrencyLimited, detail: "The tenant already runs \(limit) fetches; retry after 1 s.", headers: headers)
    }
}
