import NIOCore

/// A body read past its limit (`collectBody(upTo:)`) as a problem.
extension NIOTooManyBytesError: ProblemRepresentable {
    public var problemError: ProblemError {
        ProblemError(.contentTooLarge, code: "request.body_too_large", title: "Content Too Large",
                     detail: "The request body exceeds the tenant's limit.")
    }
}
