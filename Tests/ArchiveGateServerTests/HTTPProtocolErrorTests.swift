@testable import ArchiveGateServer
import ArchiveGateTestSupport
import Foundation
import Testing

/// What `HTTPConformanceHandler` answers before the router: parser rejections (431, 400) as
/// problem+json with a request id, a log line and a metric; `Host` rules; HTTP/1.0 persistence.
/// Raw loopback sockets, since no HTTP library sends these.
@Suite struct HTTPProtocolErrorTests {
    /// A response read until the server closes the connection (or `within` passes).
    struct RawReply {
        var statusLine: String
        var headers: [String: String]
        var body: [UInt8]
        var closed: Bool

        var problem: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]) ?? [:] }
    }

    /// Sends `request` on a fresh connection and reads everything until the server closes it.
    static func exchange(_ request: [UInt8], port: Int, within: Duration = .seconds(10)) async throws -> RawReply {
        try await offCooperativePool {
            let connection = try RawConnection(port: port)
            defer { connection.close() }
            _ = connection.send(request)
            var received: [UInt8] = []
            var closed = false
            let clock = ContinuousClock()
            let deadline = clock.now + within
            while clock.now < deadline && !closed {
                let (bytes, ended) = connection.read(waitingAtMost: .milliseconds(200))
                received += bytes
                closed = ended
            }
            return parse(received, closed: closed)
        }
    }

    static func parse(_ bytes: [UInt8], closed: Bool) -> RawReply {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let lines = parts[0].components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = parts.count > 1 ? Array(parts.dropFirst().joined(separator: "\r\n\r\n").utf8) : []
        return RawReply(statusLine: lines[0], headers: headers, body: body, closed: closed)
    }

    static func metricValue(_ name: String, code: String, port: Int) async throws -> Int {
        let metrics = try await TestServer.send("/metrics", method: .GET, port: port).text
        let prefix = "\(name){code=\"\(code)\"} "
        let line = metrics.split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }

    /// Every refusal: its status, problem+json whose `requestId` is the `X-Request-Id`, the
    /// connection ended, one access-log line and one count in the metric.
    @Test(arguments: [
        ("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: \(String(repeating: "a", count: 100_000))\r\n\r\n",
         431, "request.header_fields_too_large"),
        ("GET /\(String(repeating: "p", count: 100_000)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 431, "request.header_fields_too_large"),
        ("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n", 400, "request.malformed"),
        ("\u{1}\u{2}\u{3} not http at all\r\n\r\n", 400, "request.malformed"),
        ("GET /healthz HTTP/1.1\r\n\r\n", 400, "request.bad_host"),
        ("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n", 400, "request.bad_host"),
        ("GET /healthz HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", 400, "request.bad_host"),
    ])
    func refusalsAreProblemsWithIdLogAndMetric(request: String, status: Int, code: String) async throws {
        let log = CapturedLog()
        try await TestServer.run(configure: { $0.logLevel = .info; $0.idleTimeout = .seconds(120) }, log: log) { port in
            let before = try await Self.metricValue("archivegate_http_protocol_errors_total", code: code, port: port)
            let reply = try await Self.exchange(Array(request.utf8), port: port)
            // An HTTP/1.0 request is answered in HTTP/1.0.
            #expect(reply.statusLine.hasPrefix("HTTP/1.") && reply.statusLine.dropFirst(8).hasPrefix(" \(status) "), "\(reply.statusLine)")
            #expect(reply.headers["content-type"] == "application/problem+json")
            #expect(reply.headers["connection"] == "close")
            #expect(reply.closed, "the connection stayed open after the refusal")
            #expect(reply.problem["code"] as? String == code)
            #expect(reply.problem["status"] as? Int == status)
            let requestId = try #require(reply.headers["x-request-id"])
            #expect(requestId.count == 32)
            #expect(reply.problem["requestId"] as? String == requestId)
            #expect(reply.headers["content-length"] == String(reply.body.count))

            let after = try await Self.metricValue("archivegate_http_protocol_errors_total", code: code, port: port)
            #expect(after == before + 1)
            let lines = log.lines.filter { $0.message == "request" && $0.metadata["request_id"] == requestId }
            #expect(lines.count == 1)
            #expect(lines.first?.metadata["status"] == String(status))
            #expect(lines.first?.metadata["problem"] == code)
            #expect(lines.first?.metadata["route"] == "unrouted")
        }
    }

    /// HTTP/1.0 needs no `Host`; without `keep-alive` its connection ends after the response,
    /// which is an HTTP/1.0 response (no chunked framing for a client that cannot read it).
    @Test func http10WithoutKeepAliveIsAnsweredAndClosed() async throws {
        try await TestServer.run(configure: { $0.idleTimeout = .seconds(120) }) { port in
            let reply = try await Self.exchange(Array("GET /healthz HTTP/1.0\r\n\r\n".utf8), port: port, within: .seconds(10))
            #expect(reply.statusLine.hasPrefix("HTTP/1.0 200 "), "\(reply.statusLine)")
            #expect(reply.headers["connection"] == "close")
            #expect(reply.headers["transfer-encoding"] == nil)
            #expect(reply.closed, "an HTTP/1.0 connection without keep-alive was still open 10 s after its response")
        }
    }

    /// `Connection: close` from an HTTP/1.1 client: answered with `Connection: close`, then closed.
    @Test func http11ConnectionCloseIsHonoured() async throws {
        try await TestServer.run(configure: { $0.idleTimeout = .seconds(120) }) { port in
            let request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Close\r\n\r\n"
            let reply = try await Self.exchange(Array(request.utf8), port: port)
            #expect(reply.statusLine.hasPrefix("HTTP/1.1 200 "))
            #expect(reply.headers["connection"] == "close")
            #expect(reply.closed)
        }
    }

    /// HTTP/1.0 with `keep-alive` keeps the connection: a second request on it is answered.
    @Test func http10KeepAliveServesASecondRequest() async throws {
        try await TestServer.run { port in
            let (first, second) = try await offCooperativePool {
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                let request = Array("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n".utf8)
                _ = connection.send(request)
                let (one, _) = connection.read(waitingAtMost: .seconds(10))
                _ = connection.send(request)
                let (two, _) = connection.read(waitingAtMost: .seconds(10))
                return (Self.parse(one, closed: false), Self.parse(two, closed: false))
            }
            #expect(first.statusLine.hasPrefix("HTTP/1.0 200 "), "\(first.statusLine)")
            #expect(first.headers["connection"]?.lowercased() == "keep-alive")
            #expect(second.statusLine.hasPrefix("HTTP/1.0 200 "), "\(second.statusLine)")
        }
    }

    /// A bad request pipelined behind a good one: the good one is answered first, then the refusal.
    @Test func aPipelinedRefusalWaitsForTheEarlierResponse() async throws {
        try await TestServer.run { port in
            let request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /healthz HTTP/1.1\r\n\r\n"
            let reply = try await Self.exchange(Array(request.utf8), port: port)
            let text = String(decoding: reply.body, as: UTF8.self)
            #expect(reply.statusLine.hasPrefix("HTTP/1.1 200 "), "\(reply.statusLine)")
            #expect(text.contains("HTTP/1.1 400 Bad Request\r\n"), "\(text.prefix(300))")
            #expect(text.contains("request.bad_host"))
            #expect(reply.closed)
        }
    }
}
