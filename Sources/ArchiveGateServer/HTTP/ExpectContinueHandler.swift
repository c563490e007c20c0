import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` (RFC 9110 §10.1.1) with `100 Continue` as soon as the request
/// head is read. Neither Hummingbird 2.28 nor NIO's HTTP/1 pipeline send it, so a client that
/// asks (curl does for bodies over 1 MiB) waits its own timeout (curl: 1 s) before sending the body.
///
/// The interim answer goes out at once rather than after authentication: the handlers that could
/// refuse run later, as tasks. A refusal (401, 413, 415) still ends the connection early
/// (`EarlyCloseHandler`), so a refused client does not get to send much.
final class ExpectContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data),
           head.headerFields[.expect]?.lowercased() == "100-continue" {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }
}
