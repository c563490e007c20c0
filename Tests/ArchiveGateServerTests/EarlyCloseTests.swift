@testable import ArchiveGateServer
import ArchiveGateTestSupport
import Foundation
import NIOHTTP1
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// After an early 401, 413 or 415 to a request that announced a body, the server answers and ends
/// the connection instead of reading the unused body until the body timeout.
@Suite struct EarlyCloseTests {
    /// Sends `head` and 64 KiB of a much larger body, then stops sending; returns the bytes read
    /// and whether the server ended the connection within `within`.
    private static func answer(port: Int, head: String, within: Duration) throws -> (text: String, closed: Bool) {
        let connection = try RawConnection(port: port)
        defer { connection.close() }
        guard connection.send(Array(head.utf8)) else { return ("", true) }
        _ = connection.send([UInt8](repeating: 0x41, count: 64 << 10))
        var received: [UInt8] = []
        let clock = ContinuousClock()
        let deadline = clock.now + within
        while clock.now < deadline {
            let (bytes, closed) = connection.read(waitingAtMost: .milliseconds(200))
            received += bytes
            if closed { return (String(decoding: received, as: UTF8.self), true) }
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    @Test(arguments: [
        ("Authorization: Bearer wrong-key\r\nContent-Type: application/octet-stream\r\n", "401"),
        ("Authorization: Bearer \(TestTenant.tiny.key)\r\nContent-Type: application/octet-stream\r\n", "413"),
        ("Authorization: Bearer \(TestTenant.alpha.key)\r\nContent-Type: text/plain\r\n", "415"),
    ])
    func earlyRefusalsEndTheConnection(headers: String, status: String) async throws {
        try await TestServer.run(configure: { $0.bodyTimeout = .seconds(120); $0.idleTimeout = .seconds(120) }) { port in
            let head = "POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)Content-Length: 10000000\r\n\r\n"
            let (text, closed) = try await offCooperativePool { try Self.answer(port: port, head: head, within: .seconds(10)) }
            #expect(text.hasPrefix("HTTP/1.1 \(status)"), "\(text.prefix(200))")
            #expect(text.lowercased().contains("connection: close"))
            #expect(closed, "the connection was still open 10 s after the \(status), with 120 s of body timeout left")
        }
    }

    @Test func aRefusalWithoutABodyKeepsTheConnection() async throws {
        try await TestServer.run { port in
            let (first, closed, second) = try await offCooperativePool {
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                let request = "GET /v1/archives HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer wrong\r\n\r\n"
                _ = connection.send(Array(request.utf8))
                let (bytes, closed) = connection.read(waitingAtMost: .seconds(10))
                // The same connection serves the next request.
                _ = connection.send(Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                let (next, _) = connection.read(waitingAtMost: .seconds(10))
                return (String(decoding: bytes, as: UTF8.self), closed, String(decoding: next, as: UTF8.self))
            }
            #expect(first.hasPrefix("HTTP/1.1 401"))
            #expect(!closed)
            #expect(second.hasPrefix("HTTP/1.1 200"))
        }
    }
}

extension RawConnection {
    /// Reads what arrives within `timeout` (one read); `closed` when the peer has ended the
    /// connection (a read of 0 bytes or an error).
    func read(waitingAtMost timeout: Duration) -> (bytes: [UInt8], closed: Bool) {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&poller, 1, milliseconds) > 0 else { return ([], false) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? (Array(buffer[..<count]), false) : ([], true)
    }
}
