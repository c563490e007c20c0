import HTTPTypes

/// The server's own problems. Each `code` is stable: clients and docs rely on it.
extension ProblemError {
    static func unauthorized(presentedKey: Bool) -> ProblemError {
        // RFC 6750: say which scheme is expected; add error="invalid_token" when a key was sent.
        var headers = HTTPFields()
        headers[.wwwAuthenticate] = presentedKey ? #"Bearer realm="archivegate", error="invalid_token""# : #"Bearer realm="archivegate""#
        return ProblemError(.unauthorized, code: "auth.unauthorized", title: "Unauthorized",
                            detail: presentedKey ? "The API key is not known." : "Send 'Authorization: Bearer <API key>'.",
                            headers: headers)
    }

    static func rateLimited(retryAfterSeconds: Int) -> ProblemError {
        var headers = HTTPFields()
        headers[.retryAfter] = String(retryAfterSeconds)
        return ProblemError(.tooManyRequests, code: "tenant.rate_limited", title: "Too Many Requests",
                            detail: "The tenant's request rate is exhausted; retry after \(retryAfterSeconds) s.", headers: headers)
    }

    static func bodyTooLarge(limit: Int) -> ProblemError {
        ProblemError(.contentTooLarge, code: "request.body_too_large", title: "Content Too Large",
                     detail: "The request body exceeds the tenant's limit of \(limit) bytes.")
    }

    static func inflatedTooLarge(limit: Int) -> ProblemError {
        ProblemError(.contentTooLarge, code: "request.inflated_too_large", title: "Content Too Large",
                     detail: "The gzip body inflates past the tenant's archive limit of \(limit) bytes.")
    }

    static func unsupportedMediaType(_ received: String, accepted: String) -> ProblemError {
        ProblemError(.unsupportedMediaType, code: "request.unsupported_media_type", title: "Unsupported Media Type",
                     detail: "Content-Type '\(received)' is not accepted; send \(accepted).")
    }

    static func unsupportedEncoding(_ received: String) -> ProblemError {
        ProblemError(.unsupportedMediaType, code: "request.unsupported_encoding", title: "Unsupported Media Type",
                     detail: "Content-Encoding '\(received)' is not accepted; send gzip or no encoding.")
    }

    static func invalidGzip(_ reason: String) -> ProblemError {
        ProblemError(.badRequest, code: "request.invalid_gzip", title: "Bad Request",
                     detail: "The gzip body cannot be inflated: \(reason).")
    }

    static func invalidRequest(_ detail: String) -> ProblemError {
        ProblemError(.badRequest, code: "request.invalid", title: "Bad Request", detail: detail)
    }

    /// A path that exists, asked with a method it does not serve; `Allow` lists the ones it does.
    static func methodNotAllowed(path: String, methods: [String]) -> ProblemError {
        var problem = methodNotAllowed(detail: "\(path) supports \(methods.joined(separator: ", ")).")
        problem.headers[.allow] = methods.joined(separator: ", ")
        return problem
    }

    static func methodNotAllowed(detail: String) -> ProblemError {
        ProblemError(.methodNotAllowed, code: "request.method_not_allowed", title: "Method Not Allowed", detail: detail)
    }

    static let notFound = ProblemError(.notFound, code: "request.not_found", title: "Not Found",
                                       detail: "No such resource.")

    static let internalError = ProblemError(.internalServerError, code: "server.internal", title: "Internal Server Error",
                                            detail: "The server failed; the request id is in the log.")
}
