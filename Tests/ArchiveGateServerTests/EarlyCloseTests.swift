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

    /// Issue 31: during the 2 s linger after an early 401 the server went on reading (and
    /// Hummingbird draining) whatever the client pushed: gigabytes per connection. Now it stops
    /// reading at once: the client can push only what the kernel's socket buffers hold.
    @Test(arguments: [
        "Authorization: Bearer wrong-key\r\nContent-Type: application/octet-stream\r\n",
        "Authorization: Bearer \(TestTenant.tiny.key)\r\nContent-Type: application/octet-stream\r\n",
    ])
    func afterAnEarlyRefusalTheServerReadsNoMore(headers: String) async throws {
        try await TestServer.run(configure: { $0.bodyTimeout = .seconds(120); $0.idleTimeout = .seconds(120) }) { port in
            let head = "POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)Content-Length: 100000000000\r\n\r\n"
            let (answer, pushed, closed) = try await offCooperativePool { try Self.push(port: port, head: head) }
            #expect(answer.hasPrefix("HTTP/1.1 4"), "\(answer.prefix(200))")
            #expect(closed, "the server never ended the connection")
            // Loopback socket buffers autotune to a few MiB each way; reading on would be gigabytes.
            #expect(pushed < 32 << 20, "the client pushed \(pushed >> 20) MiB after the refusal")
        }
    }

    /// Sends `head`, then body bytes as fast as the connection takes them, reading what comes back,
    /// until the server ends the connection (or 30 s pass). Returns the answer, the body bytes the
    /// kernel accepted and whether the connection ended.
    private static func push(port: Int, head: String) throws -> (answer: String, pushed: Int, closed: Bool) {
        let connection = try RawConnection(port: port)
        defer { connection.close() }
        guard connection.send(Array(head.utf8)) else { return ("", 0, true) }
        _ = fcntl(connection.descriptor, F_SETFL, fcntl(connection.descriptor, F_GETFL) | O_NONBLOCK)
        let chunk = [UInt8](repeating: 0x41, count: 256 << 10)
        var pushed = 0
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: connection.descriptor, events: Int16(POLLIN | POLLOUT), revents: 0)
            guard poll(&poller, 1, 500) > 0 else { continue }
            if poller.revents & Int16(POLLIN) != 0 {
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = buffer.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
                if count > 0 { received += buffer[..<count] }
                if count < 0 && errno != EAGAIN { return (String(decoding: received, as: UTF8.self), pushed, true) }
            }
            if poller.revents & Int16(POLLERR | POLLHUP) != 0 { return (String(decoding: received, as: UTF8.self), pushed, true) }
            if poller.revents & Int16(POLLOUT) != 0 {
                let sent = chunk.withUnsafeBytes { Glibc.send(connection.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent > 0 { pushed += sent }
                if sent < 0 && errno != EAGAIN { return (String(decoding: received, as: UTF8.self), pushed, true) }
            }
        }
        return (String(decoding: received, as: UTF8.self), pushed, false)
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
