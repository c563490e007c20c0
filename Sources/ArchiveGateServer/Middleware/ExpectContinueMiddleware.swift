import Hummingbird
import NIOCore

/// For a request that sent `Expect: 100-continue`, wraps its body so that the first read asks
/// `ExpectContinueHandler` for the `100 Continue`. Its place in the chain does not matter: the
/// body is first read by the handler, after every middleware (authentication, rate limit, memory
/// budget) and the handler's own checks have passed. A request without the expectation is left
/// as it is.
struct ExpectContinueMiddleware: RouterMiddleware {
    typealias Context = ArchiveRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[.expect]?.lowercased() == "100-continue" else { return try await next(request, context) }
        var request = request
        request.body = RequestBody(asyncSequence: ContinuingBody(base: request.body, channel: context.channel))
        return try await next(request, context)
    }
}

/// A request body that fires `ExpectContinueHandler.SendContinue` before its first read.
private struct ContinuingBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let base: RequestBody
    let channel: any Channel

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let channel: any Channel
        var asked = false

        mutating func next() async throws -> ByteBuffer? {
            if !asked {
                asked = true
                channel.triggerUserOutboundEvent(ExpectContinueHandler.SendContinue(), promise: nil)
            }
            return try await base.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), channel: channel)
    }
}
