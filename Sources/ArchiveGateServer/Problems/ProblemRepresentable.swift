/// An error that knows its HTTP problem. Each module's error type gets its mapping in its own
/// `X+HTTPResponseError.swift` file beside this one (core, fetch, store, inflate, Hummingbird's and
/// NIO's errors); `ProblemMiddleware` only renders what the error says and never decides a status.
///
/// Adding a problem code: a server problem is one entry in the catalogue, `ProblemCode.swift`
/// (raw string, status, title); a code of another module (`archive.*`, `fetch.*`, …) is one
/// constant in that module's error `Code` plus, when it needs a status of its own, one line in its
/// `X+HTTPResponseError.swift`.
public protocol ProblemRepresentable: Error {
    /// The problem document and status this error answers with.
    var problemError: ProblemError { get }
    /// True when the error is the server's own failure: its cause goes to the log (never to the
    /// client, which gets the problem's generic detail).
    var logsCause: Bool { get }
}

extension ProblemRepresentable {
    public var logsCause: Bool { false }
}

extension ProblemError: ProblemRepresentable {
    public var problemError: ProblemError { self }
}
