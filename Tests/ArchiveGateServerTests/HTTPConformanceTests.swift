@testable import ArchiveGateServer
import ArchiveGateTestSupport
import Foundation
import Testing

/// `Expect: 100-continue` and `HEAD`, over a raw loopback connection (what curl and proxies send).
@Suite struct HTTPConformanceTests {
    /// The 100 comes before any body byte is sent; the final answer after the body.
    @Test func expectContinueIsAnsweredBeforeTheBody() async throws {
        let archive = try Fixtures.plainArchive()
        try await TestServer.run { port in
            let (interim, final) = try await offCooperativePool {
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                let head = "POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(TestTenant.alpha.key)\r\n"
                    + "Content-Type: application/octet-stream\r\nExpect: 100-continue\r\nContent-Length: \(archive.count)\r\n\r\n"
                _ = connection.send(Array(head.utf8))
                let (first, _) = connection.read(waitingAtMost: .seconds(10))
                _ = connection.send(archive)
                var rest: [UInt8] = []
                while !String(decoding: rest, as: UTF8.self).contains("\"valid\"") {
                    let (bytes, closed) = connection.read(waitingAtMost: .seconds(10))
                    rest += bytes
                    if closed || bytes.isEmpty { break }
                }
                return (String(decoding: first, as: UTF8.self), String(decoding: rest, as: UTF8.self))
            }
            #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n"), "\(interim.prefix(100))")
            #expect(final.hasPrefix("HTTP/1.1 200") || interim.contains("HTTP/1.1 200"), "\(final.prefix(200))")
        }
    }

    /// Issue 31: `100 Continue` went out before authentication, limits and media type were
    /// checked, inviting refused clients to send their bodies. Now a refusal is the first answer.
    @Test(arguments: [
        ("Authorization: Bearer wrong-key\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000", "401"),
        ("Authorization: Bearer \(TestTenant.tiny.key)\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000000", "413"),
        ("Authorization: Bearer \(TestTenant.alpha.key)\r\nContent-Type: text/plain\r\nContent-Length: 1000", "415"),
        ("Content-Type: application/octet-stream\r\nContent-Length: 1000", "401"),
    ])
    func aRefusedRequestGetsNoContinue(headers: String, status: String) async throws {
        try await TestServer.run { port in
            let first = try await offCooperativePool {
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                let head = "POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\nExpect: 100-continue\r\n\r\n"
                _ = connection.send(Array(head.utf8))
                return String(decoding: connection.read(waitingAtMost: .seconds(10)).bytes, as: UTF8.self)
            }
            #expect(first.hasPrefix("HTTP/1.1 \(status)"), "\(first.prefix(120))")
            #expect(!first.contains("100 Continue"))
        }
    }

    /// Issue 31: CONNECT was answered 404 with neither a length nor a close.
    @Test func connectIsRefusedWithALengthAndAClose() async throws {
        try await TestServer.run { port in
            let (text, closed) = try await offCooperativePool {
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                _ = connection.send(Array("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n".utf8))
                var received: [UInt8] = []
                for _ in 0..<50 {
                    let (bytes, closed) = connection.read(waitingAtMost: .seconds(5))
                    received += bytes
                    if closed { return (String(decoding: received, as: UTF8.self), true) }
                }
                return (String(decoding: received, as: UTF8.self), false)
            }
            #expect(text.hasPrefix("HTTP/1.1 405"), "\(text.prefix(200))")
            let lower = text.lowercased()
            #expect(lower.contains("connection: close\r\n"))
            #expect(lower.contains("x-content-type-options: nosniff\r\n"))
            #expect(text.contains("request.method_not_allowed"))
            let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
            #expect(lower.contains("content-length: \(body.utf8.count)\r\n"), "\(text)")
            #expect(closed)
        }
    }

    /// Issue 31: API responses lacked `X-Content-Type-Options: nosniff`; every response has it,
    /// problem+json and protocol refusals included.
    @Test func everyResponseSaysNosniff() async throws {
        try await TestServer.run { port in
            for (path, key) in [("/healthz", nil), ("/v1/archives", "wrong"), ("/nowhere", nil), ("/openapi.yaml", nil)] {
                let reply = try await TestServer.send(path, method: .GET, port: port, key: key)
                #expect(reply.headers["X-Content-Type-Options"] == ["nosniff"], "\(path) \(reply.status)")
            }
            let validated = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: try Fixtures.plainArchive())
            #expect(validated.headers["X-Content-Type-Options"] == ["nosniff"])
            let refused = try await offCooperativePool {
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                _ = connection.send(Array("GET /healthz HTTP/1.1\r\n\r\n".utf8))
                return String(decoding: connection.read(waitingAtMost: .seconds(10)).bytes, as: UTF8.self)
            }
            #expect(refused.hasPrefix("HTTP/1.1 400"))
            #expect(refused.lowercased().contains("x-content-type-options: nosniff\r\n"), "\(refused)")
        }
    }

    /// HEAD on a GET route: the GET's status and Content-Length, no body; the connection serves
    /// the next request (so no stray body bytes were sent).
    @Test(arguments: ["/healthz", "/openapi.yaml"])
    func headAnswersLikeGetWithoutABody(path: String) async throws {
        try await TestServer.run { port in
            let get = try await TestServer.send(path, method: .GET, port: port)
            let (head, next) = try await offCooperativePool {
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                _ = connection.send(Array("HEAD \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                let (bytes, _) = connection.read(waitingAtMost: .seconds(10))
                _ = connection.send(Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                let (more, _) = connection.read(waitingAtMost: .seconds(10))
                return (String(decoding: bytes, as: UTF8.self), String(decoding: more, as: UTF8.self))
            }
            #expect(head.hasPrefix("HTTP/1.1 200"), "\(head.prefix(200))")
            #expect(head.lowercased().contains("content-length: \(get.body.count)\r\n"), "\(head)")
            #expect(head.hasSuffix("\r\n\r\n"), "HEAD answered with a body: \(head.suffix(100))")
            #expect(next.hasPrefix("HTTP/1.1 200"), "\(next.prefix(100))")
        }
    }
}
