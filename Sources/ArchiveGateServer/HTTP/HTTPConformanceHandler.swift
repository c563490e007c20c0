import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// HTTP/1 rules Hummingbird 2.28 leaves out, enforced between NIO's HTTP/1 codec and its
/// conversion to HTTP types (`ConformingHTTP1Channel` puts it there: past that point neither the
/// protocol version nor a parser failure is visible any more).
///
/// - **Parser rejections** (malformed request line or fields, a head over the decoder's limits)
///   are answered with problem+json — 431 `request.header_fields_too_large` or 400
///   `request.malformed` — with a request id, an access-log line and
///   `archivegate_http_protocol_errors_total`, instead of Hummingbird's bare, unlogged 400.
/// - **Host** (RFC 9112 §3.2): an HTTP/1.1 request without `Host`, or any request with several,
///   is 400 `request.bad_host` and never reaches the router.
/// - **CONNECT** (RFC 9110 §9.3.6): this is not a proxy; 405 `request.method_not_allowed` with a
///   length and `Connection: close`, never routed (the HTTP/1 codec treats what follows a CONNECT
///   head as a tunnel, which it cannot frame).
/// - **Every response** carries `X-Content-Type-Options: nosniff` (`ProtocolRefusal.securityFields`).
/// - **Persistence** (RFC 9112 §9.3): a request that does not ask to keep the connection (HTTP/1.0
///   without `keep-alive`, or `Connection: close`) gets `Connection: close` and the connection ends
///   after its response; an HTTP/1.0 client gets an HTTP/1.0 response (so never chunked framing)
///   and no `100 Continue`.
///
/// A refusal ends the connection: what follows the bad head cannot be framed. A refusal behind
/// pipelined requests waits until their responses are written. A parser error in the middle of a
/// request's body is only logged and counted here; the request it interrupts fails as before.
final class HTTPConformanceHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A request passed on to the application and not yet answered.
    private struct Exchange {
        let version: HTTPVersion
        let keepAlive: Bool
    }

    private let limits: HTTP1Channel.Configuration.DecoderConfiguration
    private let logger: Logger
    private let metrics: ServerMetrics
    private let linger: TimeAmount
    /// Oldest first; more than one when the client pipelines.
    private var exchanges = CircularBuffer<Exchange>()
    /// A request's head was passed on and its end not yet.
    private var receivingRequest = false
    /// The response being written closes a connection the client wanted kept open (an HTTP/1.0
    /// keep-alive response without `Content-Length`, whose end only the close can mark).
    private var closeAfterResponse = false
    /// A refusal waiting for the responses to earlier pipelined requests.
    private var pendingRefusal: (refusal: ProtocolRefusal, version: HTTPVersion)?
    /// Once a request is refused nothing more is read from the connection.
    private var refusing = false

    init(limits: HTTP1Channel.Configuration.DecoderConfiguration, logger: Logger, metrics: ServerMetrics,
         linger: TimeAmount = .seconds(2)) {
        self.limits = limits
        self.logger = logger
        self.metrics = metrics
        self.linger = linger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        switch unwrapInboundIn(data) {
        case .head(var head):
            if let refusal = ProtocolRefusal.hostProblem(of: head) ?? ProtocolRefusal.connectProblem(of: head) {
                refuse(refusal, version: head.version, context: context)
                return
            }
            let keepAlive = head.isKeepAlive
            // Hummingbird ends the connection after a response only when the request says
            // exactly `Connection: close`; HTTP/1.0's implicit close has to be spelled out for it.
            if !keepAlive { head.headers.replaceOrAdd(name: "Connection", value: "close") }
            exchanges.append(Exchange(version: head.version, keepAlive: keepAlive))
            receivingRequest = true
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body:
            context.fireChannelRead(data)
        case .end:
            receivingRequest = false
            context.fireChannelRead(data)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // After a refusal the decoder reports every further byte as an error: nothing to add.
        if refusing && (error is HTTPParserError || error is ByteToMessageDecoderError) { return }
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        let refusal = ProtocolRefusal.unparsable(parserError, limits: limits)
        guard !receivingRequest else {
            record(refusal, requestId: RequestIdMiddleware.generate(), answered: false)
            context.fireErrorCaught(error)
            return
        }
        refuse(refusal, version: .http1_1, context: context)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code < 200:
            // RFC 9110 §15.2: no interim responses to an HTTP/1.0 client.
            if let exchange = exchanges.first, !exchange.version.isHTTP11OrLater {
                promise?.succeed()
                return
            }
            context.write(data, promise: promise)
        case .head(var head):
            if let exchange = exchanges.first { adapt(&head, to: exchange) }
            ProtocolRefusal.addSecurityFields(to: &head.headers)
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            if !exchanges.isEmpty { exchanges.removeFirst() }
            let closing = closeAfterResponse
            closeAfterResponse = false
            if exchanges.isEmpty, let (refusal, version) = pendingRefusal {
                pendingRefusal = nil
                context.write(data, promise: promise)
                answer(refusal, version: version, context: context)
            } else if closing {
                let written = promise ?? context.eventLoop.makePromise()
                context.writeAndFlush(data, promise: written)
                context.closeLingering(after: written.futureResult, linger: linger)
            } else {
                context.write(data, promise: promise)
            }
        }
    }

    /// The response's version and `Connection` for the request it answers.
    private func adapt(_ head: inout HTTPResponseHead, to exchange: Exchange) {
        guard exchange.version.isHTTP11OrLater else {
            // HTTP/1.0 has no chunked framing: without a length, the close marks the body's end.
            head.version = exchange.version
            if exchange.keepAlive && head.headers.contains(name: "Content-Length") {
                head.headers.replaceOrAdd(name: "Connection", value: "keep-alive")
            } else {
                head.headers.replaceOrAdd(name: "Connection", value: "close")
                closeAfterResponse = exchange.keepAlive
            }
            return
        }
        if !exchange.keepAlive { head.headers.replaceOrAdd(name: "Connection", value: "close") }
    }

    private func refuse(_ refusal: ProtocolRefusal, version: HTTPVersion, context: ChannelHandlerContext) {
        refusing = true
        if exchanges.isEmpty {
            answer(refusal, version: version, context: context)
        } else {
            pendingRefusal = (refusal, version)
        }
    }

    /// Writes the refusal and ends the connection once it is on the wire.
    private func answer(_ refusal: ProtocolRefusal, version: HTTPVersion, context: ChannelHandlerContext) {
        let requestId = RequestIdMiddleware.generate()
        let (head, body) = refusal.response(requestId: requestId, version: version)
        let written = context.eventLoop.makePromise(of: Void.self)
        // As bytes, below NIO's HTTP/1 encoder: it frames an answer by its request's method and
        // would strip the length and the body of any answer to a CONNECT, 405 included.
        if let socketSide = try? context.pipeline.syncOperations.context(handlerType: LingeringCloseHandler.self) {
            socketSide.writeAndFlush(NIOAny(ProtocolRefusal.serialized(head, body: body)), promise: written)
        } else {
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        }
        context.closeLingering(after: written.futureResult, linger: linger)
        record(refusal, requestId: requestId, answered: true)
    }

    /// The access-log line (`AccessLogMiddleware`'s fields, route `unrouted`) and the metric.
    private func record(_ refusal: ProtocolRefusal, requestId: String, answered: Bool) {
        let code = refusal.problem.code.rawValue
        metrics.recordProtocolError(code: code)
        logger.info("request", metadata: [
            "request_id": .string(requestId),
            "method": .string(refusal.method),
            "route": "unrouted",
            "status": answered ? .stringConvertible(refusal.problem.status.code) : "-",
            "tenant": "-",
            "problem": .string(code),
        ])
    }
}

extension HTTPVersion {
    /// HTTP/1.1 or later: persistent connections by default, chunked framing, `Host` required.
    var isHTTP11OrLater: Bool { major > 1 || (major == 1 && minor >= 1) }
}
