import ArchiveGateFetch
import HTTPTypes

/// The fetcher's errors as HTTP problems (`POST /v1/fetch`). A failed fetch keeps the fetcher's
/// code (`fetch.timeout`, …) as its problem code, so `type` is e.g.
/// `…/problems/fetch.blocked_destination`; this file is the whole mapping.
extension FetchError: ProblemRepresentable {
    public var problemError: ProblemError {
        ProblemError(ProblemCode(code), detail: message)
    }
}

extension FetchError.Code {
    /// The status and title of a problem with this code (`ProblemCode.response` asks here).
    var problemResponse: (status: HTTPResponse.Status, title: String) {
        switch self {
        case .blockedDestination: (.forbidden, "Destination Not Allowed")
        case .tooLarge: (.contentTooLarge, "Fetched Archive Too Large")
        case .timeout: (.gatewayTimeout, "Upstream Timed Out")
        case .upstreamStatus: (.badGateway, "Upstream Error Status")
        case .invalidURL, .notHTTP: (.badRequest, "Bad Request")
        case .tooManyRedirects: (.badGateway, "Too Many Redirects")
        case .cancelled: (.serviceUnavailable, "Fetch Cancelled")
        case .unavailable: (.serviceUnavailable, "Fetching Unavailable")
        default: (.badGateway, "Upstream Connection Failed")
        }
    }
}
