import NIOCore

/// Closes a connection whose client stops reading its response.
///
/// Hummingbird writes a response as fast as the socket takes it; once the kernel's send buffer and
/// NIO's outbound buffer are full the channel turns unwritable and the handler's writer waits —
/// holding the response's bytes (and its `MemoryLease`) for as long as the client likes, since the
/// idle timeout counts only reads. When the channel stays unwritable for `timeout`, the client is
/// not reading: the connection is closed, the pending write fails and the memory is returned.
final class SendTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let timeout: TimeAmount
    private let onTimeout: @Sendable () -> Void
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount, onTimeout: @escaping @Sendable () -> Void = {}) {
        self.timeout = timeout
        self.onTimeout = onTimeout
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            timer?.cancel()
            timer = nil
        } else if timer == nil {
            let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
            let onTimeout = self.onTimeout
            timer = context.eventLoop.scheduleTask(in: timeout) {
                onTimeout()
                loopBoundContext.value.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }
}
