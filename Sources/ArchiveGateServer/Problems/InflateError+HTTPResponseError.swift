import ArchiveGateInflate
import HTTPTypes
import Hummingbird

/// The gzip inflater's errors as HTTP problems; the inflater knows nothing of HTTP, and this file is
/// the whole mapping: output past the tenant's archive limit → 413 `request.inflated_too_large`,
/// a bad stream → 400 `request.invalid_gzip`, zlib unavailable → 500 `server.internal`.
extension InflateError {
    var problemError: ProblemError {
        switch code {
        case .inflatedTooLarge: .inflatedTooLarge(limit: limit ?? 0)
        case .invalidGzip: .invalidGzip(message)
        default: .internalError
        }
    }
}

extension InflateError: HTTPResponseError {
    public var status: HTTPResponse.Status { problemError.status }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        problemError.response(requestId: (context as? ArchiveRequestContext)?.requestId ?? "")
    }
}
