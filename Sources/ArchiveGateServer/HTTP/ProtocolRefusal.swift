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

    /// `CONNECT` asks for a tunnel; this server is not a proxy. Nil for any other method.
    static func connectProblem(of head: HTTPRequestHead) -> ProtocolRefusal? {
        guard head.method == .CONNECT else { return nil }
        var problem = ProblemError.methodNotAllowed(detail: "CONNECT is not served: this server is not a proxy.")
        // RFC 9110 §15.5.6: 405 lists the target's methods; an authority-form target has none.
        problem.headers[.allow] = ""
        return ProtocolRefusal(problem: problem, method: head.method.rawValue)
    }

    /// Header fields every response carries, router answers and refusals alike: API answers are
    /// JSON or archives, never something a browser should sniff into HTML or script.
    static let securityFields: [(name: String, value: String)] = [("X-Content-Type-Options", "nosniff")]

    static func addSecurityFields(to headers: inout HTTPHeaders) {
        for field in securityFields { headers.replaceOrAdd(name: field.name, value: field.value) }
    }

    /// `head` and `body` as HTTP/1 bytes (the refusal's own fields: `Content-Length`, no chunking).
    static func serialized(_ head: HTTPResponseHead, body: ByteBuffer) -> ByteBuffer {
        var text = "HTTP/\(head.version.major).\(head.version.minor) \(head.status.code) \(head.status.reasonPhrase)\r\n"
        for (name, value) in head.headers { text += "\(name): \(value)\r\n" }
        text += "\r\n"
        var bytes = ByteBuffer(string: text)
        var body = body
        bytes.writeBuffer(&body)
        return bytes
    }

    /// The answer: problem+json with the request id, the problem's own fields, and `Connection: close`.
    func response(requestId: String, version: HTTPVersion) -> (head: HTTPResponseHead, body: ByteBuffer) {
        let body = (try? JSONEncoder.sorted.encode(problem.problem(requestId: requestId))) ?? Data("{}".utf8)
        var headers = HTTPHeaders([
            ("Content-Type", "application/problem+json"),
            ("Content-Length", String(body.count)),
            ("Connection", "close"),
            ("X-Request-Id", requestId),
        ])
        for field in problem.headers { headers.add(name: field.name.rawName, value: field.value) }
        Self.addSecurityFields(to: &headers)
        let status = HTTPResponseStatus(statusCode: problem.status.code, reasonPhrase: problem.status.reasonPhrase)
        return (HTTPResponseHead(version: version, status: status, headers: headers), ByteBuffer(bytes: body))
    }
}
