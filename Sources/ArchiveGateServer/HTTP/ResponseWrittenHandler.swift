import NIOCore
import NIOHTTPTypes

/// Runs callbacks once the current response's end has been written to the socket — or the
/// connection has ended — rather than when the application handed its bytes to NIO.
///
/// A response body is one buffer that Hummingbird's writer passes to the channel at once; the
/// writer returns while the bytes still sit in NIO's outbound queue, for as long as the client takes
/// to read them (at most the send timeout). `MemoryBudgetMiddleware` returns a request's
/// `MemoryLease` from here, so those bytes stay counted until they are really gone.
/// Hummingbird answers one request at a time per connection, so a callback registered while a
/// request is handled belongs to the next response end.
final class ResponseWrittenHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var waiting: [@Sendable () -> Void] = []

    /// On the channel's event loop only.
    func whenWritten(_ callback: @escaping @Sendable () -> Void) {
        waiting.append(callback)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data), !waiting.isEmpty else {
            context.write(data, promise: promise)
            return
        }
        let callbacks = waiting
        waiting = []
        // Writes complete in order, so the end's promise completes after every body byte is out;
        // it fails instead when the connection closes first. Either way the bytes are gone.
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.whenComplete { _ in callbacks.forEach { $0() } }
        context.write(data, promise: written)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        let callbacks = waiting
        waiting = []
        callbacks.forEach { $0() }
    }
}

extension Channel {
    /// Has `callback` run once the response being produced on this channel is written (or the
    /// connection ends; at once when the channel has no `ResponseWrittenHandler` left, i.e. it has
    /// closed and nothing more will be written).
    ///
    /// Queued on the channel's event loop without waiting for it (a wait was a round trip between
    /// the loop and the cooperative pool on every request): the loop runs its tasks in the order
    /// they were queued, and the response's parts reach the loop the same way (NIOAsyncChannel's
    /// writer queues each write from off the loop with `execute`), so the registration lands after
    /// the previous response's parts and before this response's, which the caller hands over after
    /// this call returns.
    func whenResponseWritten(_ callback: @escaping @Sendable () -> Void) {
        guard eventLoop.inEventLoop else {
            eventLoop.execute { self.registerWhenResponseWritten(callback) }
            return
        }
        registerWhenResponseWritten(callback)
    }

    /// On the channel's event loop.
    private func registerWhenResponseWritten(_ callback: @escaping @Sendable () -> Void) {
        guard let handler = try? pipeline.syncOperations.handler(type: ResponseWrittenHandler.self) else {
            callback()
            return
        }
        handler.whenWritten(callback)
    }
}
