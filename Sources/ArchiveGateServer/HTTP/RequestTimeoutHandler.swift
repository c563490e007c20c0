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
    /// When the head or the body is due; nil when not awaited.
    private var headDeadline: NIODeadline?
    private var bodyDeadline: NIODeadline?
    /// One scheduled task for both deadlines, due at `timerDeadline`. Moving a deadline later does
    /// not touch it (when it fires early it schedules itself again for the deadline then due), so a
    /// request costs two clock reads instead of two timers scheduled and two cancelled.
    private var timer: Scheduled<Void>?
    private var timerDeadline: NIODeadline = .distantFuture
    /// Heads received minus responses finished: a pipelined head may arrive before the last `.end`.
    private var pending = 0

    init(headTimeout: TimeAmount, bodyTimeout: TimeAmount) {
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        headDeadline = .now() + headTimeout
        armTimer(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        headDeadline = nil
        bodyDeadline = nil
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            pending += 1
            headDeadline = nil
            bodyDeadline = .now() + bodyTimeout
            armTimer(context: context)
        case .end:
            bodyDeadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            pending -= 1
            if pending == 0 {
                headDeadline = .now() + headTimeout
                armTimer(context: context)
            }
        }
        context.write(data, promise: promise)
    }

    /// The earlier of the two deadlines.
    private var nextDeadline: NIODeadline? {
        switch (headDeadline, bodyDeadline) {
        case let (head?, body?): min(head, body)
        case let (head?, nil): head
        case let (nil, body?): body
        case (nil, nil): nil
        }
    }

    /// Makes sure the timer fires no later than the next deadline.
    private func armTimer(context: ChannelHandlerContext) {
        guard let due = nextDeadline else { return }
        if timer != nil, timerDeadline <= due { return }
        timer?.cancel()
        timerDeadline = due
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        let loopBoundSelf = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: due) {
            loopBoundSelf.value.timerFired(context: loopBoundContext.value)
        }
    }

    /// Closes the connection when a deadline has passed; otherwise waits for the next one, if any.
    private func timerFired(context: ChannelHandlerContext) {
        timer = nil
        guard let due = nextDeadline else { return }
        guard due > .now() else {
            context.close(promise: nil)
            return
        }
        armTimer(context: context)
    }
}
