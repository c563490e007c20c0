import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes the connection once a response that carries `Connection: close` has been written.
///
/// Hummingbird keeps a connection open after a response and reads (drains) whatever is left of the
/// request body before the next request: after an early 401, 413 or 415 to a client still sending
/// a large or slow body, that means holding a connection and reading for up to the body timeout
/// for nothing. `ProblemMiddleware` marks such answers `Connection: close`; this handler ends the
/// connection once the response's end is on the wire.
///
/// The connection reads nothing more from the moment the answer's end is written
/// (`LingeringCloseHandler`): reading on during the close let unauthenticated clients push
/// gigabytes through the HTTP decoder and Hummingbird's drain. It then closes in two steps
/// (`closeLingering`), so a client still sending its body reads the whole answer rather than a reset.
final class EarlyCloseHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let linger: TimeAmount
    private var closeAfterResponse = false

    init(linger: TimeAmount = .seconds(2)) {
        self.linger = linger
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.headerFields[.connection]?.lowercased() == "close" { closeAfterResponse = true }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            guard closeAfterResponse else {
                context.write(data, promise: promise)
                return
            }
            closeAfterResponse = false
            let written = promise ?? context.eventLoop.makePromise()
            context.writeAndFlush(data, promise: written)
            context.closeLingering(after: written.futureResult, linger: linger)
        }
    }
}
