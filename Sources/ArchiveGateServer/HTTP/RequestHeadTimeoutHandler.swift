import NIOCore
import NIOHTTPTypes

/// Closes a connection that has not delivered a complete request head within `timeout` of opening,
/// or of finishing its previous response. Hummingbird's idle timeout resets on every byte, so a
/// client dribbling one header byte at a time would otherwise hold the connection forever.
final class RequestHeadTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?
    /// Heads received minus responses finished: a pipelined head may arrive before the last `.end`.
    private var pending = 0

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        arm(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            pending += 1
            timer?.cancel()
            timer = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            pending -= 1
            if pending == 0 { arm(context: context) }
        }
        context.write(data, promise: promise)
    }

    private func arm(context: ChannelHandlerContext) {
        timer?.cancel()
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: timeout) {
            loopBoundContext.value.close(promise: nil)
        }
    }
}
