import ArchiveGateFetch
import HTTPTypes

/// The fetcher's errors as HTTP problems (`POST /v1/fetch`). A failed fetch keeps the fetcher's
/// code (`fetch.timeout`, …) as its problem code, so `type` is e.g.
/// `…/problems/fetch.blocked_destination`; this file is the whole mapping.
extension FetchError: ProblemRepresentable {
    public var problemError: ProblemError {
        let status: HTTPResponse.Status
        let title: String
        switch code {
        case .blockedDestination: (status, title) = (.forbidden, "Destination Not Allowed")
        case .tooLarge: (status, title) = (.contentTooLarge, "Fetched Archive Too Large")
        case .timeout: (status, title) = (.gatewayTimeout, "Upstream Timed Out")
        case .upstreamStatus: (status, title) = (.badGateway, "Upstream Error Status")
        case .invalidURL, .notHTTP: (status, title) = (.badRequest, "Bad Request")
        case .tooManyRedirects: (status, title) = (.badGateway, "Too Many Redirects")
        case .cancelled: (status, title) = (.serviceUnavailable, "Fetch Cancelled")
        default: (status, title) = (.badGateway, "Upstream Connection Failed")
        }
        return ProblemError(status, code: code.rawValue, title: title, detail: message)
    }
}
