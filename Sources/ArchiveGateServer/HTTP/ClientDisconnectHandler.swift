import NIOCore

/// Notices the client going away while its request is still being worked on: its side of the
/// connection closed (end of input — the server allows half-closure, so this is all a vanished
/// client shows until something is written) or the whole connection gone.
///
/// Hummingbird does not cancel a request's task when its client leaves; work that is slow and
/// useless without a reader (a `/v1/fetch` waiting on a stalled origin) waits on `disconnected`
/// (`ArchiveRequestContext.cancellingOnDisconnect`) to stop early.
final class ClientDisconnectHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private var promise: EventLoopPromise<Void>?

    /// Succeeds when the client has gone (or the handler is removed, which ends the connection).
    var disconnected: EventLoopFuture<Void>? { promise?.futureResult }

    func handlerAdded(context: ChannelHandlerContext) {
        promise = context.eventLoop.makePromise()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        promise?.succeed()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { promise?.succeed() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise?.succeed()
        context.fireChannelInactive()
    }
}
