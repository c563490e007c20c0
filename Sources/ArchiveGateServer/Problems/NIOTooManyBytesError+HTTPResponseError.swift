import NIOCore

/// A body read past its limit (`collectBody(upTo:)`) as a problem.
extension NIOTooManyBytesError: ProblemRepresentable {
    public var problemError: ProblemError {
        ProblemError(.bodyTooLarge, detail: "The request body exceeds the tenant's limit.")
    }
}
