import NIOCore

/// Ends a connection the way HTTP servers do ("lingering close") and reads nothing more from the
/// moment the close is decided. First in the pipeline, next to the socket, so once it stops
/// neither the HTTP decoder nor Hummingbird (which drains an unread request body before the next
/// request) sees another byte: a client pushing a body after an early 401 or 413 only fills the
/// kernel's socket buffers, then waits, instead of having the server read (and parse) what it sends
/// until the linger ends.
///
/// `ChannelHandlerContext.closeLingering(after:linger:)` asks for it from any handler.
final class LingeringCloseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The user outbound event that starts the close.
    struct Close {
        /// Completes when the last response's end is written; then the sending side closes.
        let written: EventLoopFuture<Void>
        /// How long the client has to read the answer before the whole connection closes.
        let linger: TimeAmount
    }

    private var closing = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Bytes a read already in flight brought in: dropped unparsed.
        guard !closing else { return }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        // No new read from the socket once closing (NIO's auto-read and Hummingbird's drain both
        // ask through here).
        guard !closing else { return }
        context.read()
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let close = event as? Close else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        promise?.succeed()
        guard !closing else { return }
        closing = true
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        close.written.whenComplete { _ in
            // First only the sending side (FIN), so a client still sending reads the whole answer
            // rather than a reset; then, after `linger`, the whole connection.
            loopBoundContext.value.close(mode: .output).whenFailure { _ in loopBoundContext.value.close(promise: nil) }
            loopBoundContext.value.eventLoop.scheduleTask(in: close.linger) { loopBoundContext.value.close(promise: nil) }
        }
    }
}

extension ChannelHandlerContext {
    /// Ends the connection once `written` completes and stops reading at once
    /// (`LingeringCloseHandler`): the sending side first, the whole connection after `linger`.
    func closeLingering(after written: EventLoopFuture<Void>, linger: TimeAmount) {
        triggerUserOutboundEvent(LingeringCloseHandler.Close(written: written, linger: linger), promise: nil)
    }
}
