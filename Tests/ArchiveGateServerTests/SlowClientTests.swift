@testable import ArchiveGateServer
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The head and body timeouts close connections whose clients keep sending, one byte at a time,
/// slower than a request needs; the idle timeout alone never fires for them.
@Suite struct SlowClientTests {
    /// Sends `head`, then one byte of `drip` every `interval` until the server closes the
    /// connection or `giveUp` passes; returns how long after the head the connection was closed
    /// (nil: still open at `giveUp`).
    private static func secondsUntilClosed(port: Int, head: String, drip: UInt8, interval: Duration,
                                           giveUp: Duration) throws -> Double? {
        let connection = try RawConnection(port: port)
        defer { connection.close() }
        let clock = ContinuousClock()
        let start = clock.now
        guard connection.send(Array(head.utf8)) else { return 0 }
        while clock.now - start < giveUp {
            if connection.peerClosed(waitingAtMost: interval) || !connection.send([drip]) {
                let elapsed = clock.now - start
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            }
        }
        return nil
    }

    /// A server whose head and body timeouts are `header` and `body` seconds, idle timeout 30 s.
    private static func timeouts(header: Int64, body: Int64) -> (inout ServerConfiguration) -> Void {
        { configuration in
            configuration.headerTimeout = .seconds(header)
            configuration.bodyTimeout = .seconds(body)
            configuration.idleTimeout = .seconds(30)
        }
    }

    @Test func aBodyTrickledInsideTheIdleTimeoutIsCutByTheBodyTimeout() async throws {
        try await TestServer.run(configure: Self.timeouts(header: 30, body: 1)) { port in
            let head = "POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(TestTenant.alpha.key)\r\n"
                + "Content-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n"
            let closedAfter = try Self.secondsUntilClosed(port: port, head: head, drip: 0, interval: .milliseconds(100),
                                                          giveUp: .seconds(30))
            let seconds = try #require(closedAfter, "a body trickled at 10 bytes/s was still open after 30 s")
            #expect(seconds >= 0.9, "closed after \(seconds) s, before the 1 s body timeout")

            // A request whose body arrives in time on the same server is answered as usual.
            let reply = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key,
                                                  body: try Fixtures.plainArchive())
            #expect(reply.status == 200)
        }
    }

    @Test func aHeadTrickledInsideTheIdleTimeoutIsCutByTheHeaderTimeout() async throws {
        try await TestServer.run(configure: Self.timeouts(header: 1, body: 30)) { port in
            let closedAfter = try Self.secondsUntilClosed(port: port, head: "POST /v1/validate HTTP/1.1\r\nX-Slow: ",
                                                          drip: UInt8(ascii: "a"), interval: .milliseconds(100),
                                                          giveUp: .seconds(30))
            let seconds = try #require(closedAfter, "a head trickled at 10 bytes/s was still open after 30 s")
            #expect(seconds >= 0.9, "closed after \(seconds) s, before the 1 s header timeout")
        }
    }

    /// The head timeout restarts when a response ends (RequestTimeoutHandler keeps one timer and
    /// moves its deadline): a keep-alive connection whose first request came late in its first
    /// head timeout still gets a whole timeout for the next head, then is cut.
    @Test func theHeaderTimeoutCountsFromTheLastResponse() async throws {
        try await TestServer.run(configure: Self.timeouts(header: 1, body: 30)) { port in
            let connection = try RawConnection(port: port)
            defer { connection.close() }
            let clock = ContinuousClock()
            let opened = clock.now
            // The client is silent for most of the first head timeout.
            #expect(!connection.peerClosed(waitingAtMost: .milliseconds(600)))
            #expect(connection.send(Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)))
            #expect(!connection.peerClosed(waitingAtMost: .seconds(10)), "no answer to the first request")
            let answered = clock.now
            #expect(connection.send(Array("GET /healthz HTTP/1.1\r\nX-Slow: ".utf8)))
            var closed = false
            while !closed, clock.now - answered < .seconds(30) {
                closed = connection.peerClosed(waitingAtMost: .milliseconds(100)) || !connection.send([UInt8(ascii: "a")])
            }
            #expect(closed, "a head trickled at 10 bytes/s was still open after 30 s")
            let sinceAnswer = clock.now - answered
            #expect(sinceAnswer >= .milliseconds(900), "cut \(sinceAnswer) after the answer, before a whole head timeout")
            #expect(clock.now - opened >= .milliseconds(1500), "cut by the first head timeout, counted from the connection")
        }
    }
}

/// A blocking loopback TCP connection, for clients no HTTP library would imitate.
final class RawConnection {
    let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    /// False once the peer has closed (EPIPE/ECONNRESET; MSG_NOSIGNAL keeps SIGPIPE away).
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Waits up to `timeout` for the peer to close (a read of 0 bytes or an error); response
    /// bytes, if any, are read and dropped.
    func peerClosed(waitingAtMost timeout: Duration) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&poller, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count <= 0
    }

    func close() {
        Glibc.close(descriptor)
    }
}
