import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` (RFC 9110 §10.1.1) with `100 Continue` when the request's
/// handler first asks for its body — after authentication, the rate limit, the memory budget and
/// the handler's own checks (media type, declared length) have let it through. A request refused
/// before that (401, 413, 415, 429, 503) gets its final answer without a `100 Continue`, so a
/// client that waits, as curl does, never sends the body at all.
///
/// Neither Hummingbird 2.28 nor NIO's HTTP/1 pipeline send it. The signal is `SendContinue`, a user
/// outbound event `ExpectContinueMiddleware` fires from the request's body sequence; requests are
/// answered in order, so it concerns the oldest unanswered one.
final class ExpectContinueHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The request's handler wants its body.
    struct SendContinue {}

    /// One entry per request read and not yet answered, oldest first: true while it still waits
    /// for its `100 Continue`.
    private var waiting = CircularBuffer<Bool>()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            waiting.append(head.headerFields[.expect]?.lowercased() == "100-continue")
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code >= 200:
            // The final answer: a `100 Continue` after it would be read as the next response.
            if !waiting.isEmpty { waiting[waiting.startIndex] = false }
        case .end:
            if !waiting.isEmpty { waiting.removeFirst() }
        default:
            break
        }
        context.write(data, promise: promise)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is SendContinue else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        promise?.succeed()
        guard waiting.first == true else { return }
        waiting[waiting.startIndex] = false
        context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
    }
}
