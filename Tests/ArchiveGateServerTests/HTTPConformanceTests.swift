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
