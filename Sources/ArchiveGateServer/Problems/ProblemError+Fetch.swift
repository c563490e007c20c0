import ArchiveGateFetch
import HTTPTypes

/// `POST /v1/fetch` problems. A failed fetch keeps the fetcher's code (`fetch.timeout`, …) as its
/// problem code, so `type` is e.g. `…/problems/fetch.blocked_destination`.
extension ProblemError {
    static func fetchFailed(_ error: FetchError) -> ProblemError {
        let status: HTTPResponse.Status
        let title: String
        switch error.code {
        case .blockedDestination: (status, title) = (.forbidden, "Destination Not Allowed")
        case .tooLarge: (status, title) = (.contentTooLarge, "Fetched Archive Too Large")
        case .timeout: (status, title) = (.gatewayTimeout, "Upstream Timed Out")
        case .upstreamStatus: (status, title) = (.badGateway, "Upstream Error Status")
        case .invalidURL, .notHTTP: (status, title) = (.badRequest, "Bad Request")
        case .tooManyRedirects: (status, title) = (.badGateway, "Too Many Redirects")
        case .cancelled: (status, title) = (.serviceUnavailable, "Fetch Cancelled")
        default: (status, title) = (.badGateway, "Upstream Connection Failed")
        }
        return ProblemError(status, code: error.code.rawValue, title: title, detail: error.message)
    }

    static func fetchConcurrencyLimited(limit: Int) -> ProblemError {
        var headers = HTTPFields()
        headers[.retryAfter] = "1"
        return ProblemError(.tooManyRequests, code: "fetch.concurrency_limited", title: "Too Many Requests",
                            detail: "The tenant already runs \(limit) fetches; retry after 1 s.", headers: headers)
    }
}
