import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client is too slow to send a request, in the two ways Hummingbird's
/// idle timeout cannot see because it resets on every byte:
///
/// - **head**: no complete request head within `headTimeout` of opening, or of finishing the
///   previous response (a client dribbling one header byte at a time);
/// - **body**: the request body not complete within `bodyTimeout` of its head (a client sending
///   one body byte a second holds a connection and a growing buffer for as long as it likes).
///
/// A closed connection ends the handler's body stream with an error, so the request is abandoned;
/// no response can be written once the client has stopped reading, which is why this closes rather
/// than answering 408.
final class RequestTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let headTimeout: TimeAmount
    private let bodyTimeout: TimeAmount
    private var headTimer: Scheduled<Void>?
    private var bodyTimer: Scheduled<Void>?
    /// Heads received minus responses finished: a pipelined head may arrive before the last `.end`.
    private var pending = 0

    init(headTimeout: TimeAmount, bodyTimeout: TimeAmount) {
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        headTimer = closeAfter(headTimeout, context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        headTimer?.cancel()
        headTimer = nil
        bodyTimer?.cancel()
        bodyTimer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            pending += 1
            headTimer?.cancel()
            headTimer = nil
            bodyTimer?.cancel()
            bodyTimer = closeAfter(bodyTimeout, context: context)
        case .end:
            bodyTimer?.cancel()
            bodyTimer = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            pending -= 1
            if pending == 0 {
                headTimer?.cancel()
                headTimer = closeAfter(headTimeout, context: context)
            }
        }
        context.write(data, promise: promise)
    }

    private func closeAfter(_ timeout: TimeAmount, context: ChannelHandlerContext) -> Scheduled<Void> {
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        return context.eventLoop.scheduleTask(in: timeout) {
            loopBoundContext.value.close(promise: nil)
        }
    }
}
