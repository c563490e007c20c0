import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// `HEAD` on a `GET` route (RFC 9110 §9.3.2): the request is handed to the application as a `GET`,
/// so it gets the same status and headers (`Content-Length` included). NIO's HTTP/1 decoder has
/// already told its response encoder that the request was a `HEAD`, and the encoder sends no body.
///
/// A channel handler rather than a middleware: Hummingbird's router picks the route by method
/// before any router middleware runs, so a `HEAD` would be a 405 there. The access log shows `GET`.
final class HeadRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.method == .head else {
            context.fireChannelRead(data)
            return
        }
        head.method = .get
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
