import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 child channel with `HTTPConformanceHandler` placed between NIO's HTTP/1
/// codec and `HTTP1ToHTTPServerCodec`, and `LingeringCloseHandler` next to the socket. `HTTP1Channel`'s `additionalChannelHandlers` all sit after
/// the conversion to HTTP types, where the protocol version is gone and a parser error has no
/// request to answer.
struct ConformingHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let makeConformanceHandler: @Sendable () -> HTTPConformanceHandler

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let makeConformanceHandler = self.makeConformanceHandler
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let conversion = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
            try pipeline.addHandler(makeConformanceHandler(), position: .before(conversion))
            try pipeline.addHandler(LingeringCloseHandler(), position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
