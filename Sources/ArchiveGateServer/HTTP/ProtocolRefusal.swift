import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTP1

/// A request refused before it reaches the router, by `HTTPConformanceHandler`: the problem it is
/// answered with and what the access log may say of it (the method, never the raw target).
struct ProtocolRefusal {
    let problem: ProblemError
    /// The request's method, or `-` when the request line did not parse.
    let method: String

    /// Bytes NIO's HTTP/1 decoder could not read as a request. An over-long request line or head
    /// is 431 (RFC 6585 §5); everything else 400.
    static func unparsable(_ error: HTTPParserError, limits: HTTP1Channel.Configuration.DecoderConfiguration) -> ProtocolRefusal {
        if error == .headerOverflow {
            let detail = "The request line and header fields exceed the server's limits: \(limits.maxHeaderListSize) bytes in all, "
                + "\(limits.maxHeaderFieldSize) bytes per field, \(limits.maxHeaderFieldCount) fields."
            return ProtocolRefusal(problem: ProblemError(.headFieldsTooLarge, detail: detail), method: "-")
        }
        return ProtocolRefusal(problem: ProblemError(.malformedRequest, detail: "The request is not valid HTTP/1.1 (\(error))."),
                               method: "-")
    }

    /// RFC 9112 §3.2: an HTTP/1.1 request carries exactly one `Host`; any request more than one is
    /// refused (two hosts leave the target ambiguous between this server and whatever sits in front).
    /// Nil when the head is fine.
    static func hostProblem(of head: HTTPRequestHead) -> ProtocolRefusal? {
        let hosts = head.headers["Host"].count
        let detail: String
        if hosts > 1 {
            detail = "The request carries \(hosts) Host header fields; send exactly one."
        } else if hosts == 0 && head.version.isHTTP11OrLater {
            detail = "An HTTP/1.1 request must carry a Host header field."
        } else {
            return nil
        }
        return ProtocolRefusal(problem: ProblemError(.badHost, detail: detail), method: head.method.rawValue)
    }

    /// The answer: problem+json with the request id, and `Connection: close`.
    func response(requestId: String, version: HTTPVersion) -> (head: HTTPResponseHead, body: ByteBuffer) {
        let body = (try? JSONEncoder.sorted.encode(problem.problem(requestId: requestId))) ?? Data("{}".utf8)
        let headers = HTTPHeaders([
            ("Content-Type", "application/problem+json"),
            ("Content-Length", String(body.count)),
            ("Connection", "close"),
            ("X-Request-Id", requestId),
        ])
        let status = HTTPResponseStatus(statusCode: problem.status.code, reasonPhrase: problem.status.reasonPhrase)
        return (HTTPResponseHead(version: version, status: status, headers: headers), ByteBuffer(bytes: body))
    }
}
