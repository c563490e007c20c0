import HTTPTypes

/// The server's own problems whose detail or headers need building; their codes, statuses and
/// titles are in the catalogue, `ProblemCode.swift`.
extension ProblemError {
    static func unauthorized(presentedKey: Bool) -> ProblemError {
        // RFC 6750: say which scheme is expected; add error="invalid_token" when a key was sent.
        var headers = HTTPFields()
        headers[.wwwAuthenticate] = presentedKey ? #"Bearer realm="archivegate", error="invalid_token""# : #"Bearer realm="archivegate""#
        return ProblemError(.unauthorized,
                            detail: presentedKey ? "The API key is not known." : "Send 'Authorization: Bearer <API key>'.",
                            headers: headers)
    }

    /// A problem the client may retry: `Retry-After` carries `seconds`, the one place it is set.
    static func retryable(_ code: ProblemCode, after seconds: Int, detail: String) -> ProblemError {
        var headers = HTTPFields()
        headers[.retryAfter] = String(seconds)
        return ProblemError(code, detail: detail, headers: headers)
    }

    static func rateLimited(retryAfterSeconds: Int) -> ProblemError {
        .retryable(.rateLimited, after: retryAfterSeconds,
                   detail: "The tenant's request rate is exhausted; retry after \(retryAfterSeconds) s.")
    }

    static func bodyTooLarge(limit: Int) -> ProblemError {
        ProblemError(.bodyTooLarge, detail: "The request body exceeds the tenant's limit of \(limit) bytes.")
    }

    static func inflatedTooLarge(limit: Int) -> ProblemError {
        ProblemError(.inflatedTooLarge, detail: "The gzip body inflates past the tenant's archive limit of \(limit) bytes.")
    }

    static func unsupportedMediaType(_ received: String, accepted: String) -> ProblemError {
        ProblemError(.unsupportedMediaType, detail: "Content-Type '\(received)' is not accepted; send \(accepted).")
    }

    static func unsupportedEncoding(_ received: String) -> ProblemError {
        ProblemError(.unsupportedEncoding, detail: "Content-Encoding '\(received)' is not accepted; send gzip or no encoding.")
    }

    static func invalidGzip(_ reason: String) -> ProblemError {
        ProblemError(.invalidGzip, detail: "The gzip body cannot be inflated: \(reason).")
    }

    static func invalidRequest(_ detail: String) -> ProblemError {
        ProblemError(.invalidRequest, detail: detail)
    }

    /// A path that exists, asked with a method it does not serve; `Allow` lists the ones it does.
    static func methodNotAllowed(path: String, methods: [String]) -> ProblemError {
        var problem = methodNotAllowed(detail: "\(path) supports \(methods.joined(separator: ", ")).")
        problem.headers[.allow] = methods.joined(separator: ", ")
        return problem
    }

    static func methodNotAllowed(detail: String) -> ProblemError {
        ProblemError(.methodNotAllowed, detail: detail)
    }

    static let notFound = ProblemError(.notFound, detail: "No such resource.")

    static let internalError = ProblemError(.internalError, detail: "The server failed; the request id is in the log.")
}
