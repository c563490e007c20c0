import Hummingbird

/// Hummingbird's errors as problems. Our own code never throws `HTTPError`; these come from
/// Hummingbird (the router's 404, a malformed request). Their status is kept, and server-side ones
/// stay opaque.
extension HTTPError: ProblemRepresentable {
    public var problemError: ProblemError {
        switch status {
        case .notFound:
            return .notFound
        case .methodNotAllowed:
            var problem = ProblemError.methodNotAllowed(detail: "The resource does not support this method.")
            problem.headers = headers
            return problem
        default:
            let isServer = status.kind == .serverError
            return ProblemError(status, code: isServer ? .internalError : .invalidRequest,
                                title: status.reasonPhrase,
                                detail: isServer ? "The server failed." : (body ?? status.reasonPhrase))
        }
    }
}
