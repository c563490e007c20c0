import ArchiveGateTestSupport
import Glibc
import Testing
@testable import ArchiveGateFetch

/// Size caps (raw and decoded), lying lengths, timeouts, low-speed abort and cancellation.
///
/// Which limit stopped a transfer is told by its error (`tooLarge`, `timeout` with its message,
/// `cancelled`), never by wall time: the loopback policy's total timeout (10 s) would end any of
/// these transfers with another error. Hangs are caught by the suite's time limit, not by a wall
/// clock bound inside a test (under load, the whole parallel suite on 2 cores can delay a test's
/// resumption past any such bound; the four 30 s bounds failed at 32–64 s that way).
@Suite(.timeLimit(.minutes(2))) struct ArchiveFetcherLimitTests {
    typealias Support = FetchTestSupport
    static let megabyte = 1024 * 1024

    func serve(_ reply: TestHTTPServer.Reply) throws -> TestHTTPServer {
        try TestHTTPServer { _ in reply }
    }

    @Test func theSizeCapStopsAnEndlessBody() async throws {
        let server = try serve(.stream(chunk: [UInt8](repeating: 0x61, count: 65536)))
        defer { server.stop() }
        let error = await Support.fetchError(server.url("/"), Support.loopbackPolicy { $0.maxBytes = Self.megabyte })
        #expect(error?.code == .tooLarge)
    }

    @Test func aBodyExactlyAtTheCapIsAccepted() async throws {
        let server = try serve(.response(status: 200, body: [UInt8](repeating: 1, count: 1000)))
        defer { server.stop() }
        let fetched = try await ArchiveFetcher().fetch(server.url("/"), policy: Support.loopbackPolicy { $0.maxBytes = 1000 })
        #expect(fetched.bytes.count == 1000)
        #expect(await Support.fetchError(server.url("/"), Support.loopbackPolicy { $0.maxBytes = 999 })?.code == .tooLarge)
    }

    @Test func anAnnouncedLengthOverTheCapIsRefusedUpFront() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 100000000000\r\nConnection: close\r\n\r\n"
        let server = try serve(.raw(Array(head.utf8) + [UInt8](repeating: 0, count: 100)))
        defer { server.stop() }
        #expect(await Support.fetchError(server.url("/"), Support.loopbackPolicy())?.code == .tooLarge)
    }

    @Test func aBodyLongerThanItsContentLengthIsCutAtTheLength() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\n"
        let server = try serve(.raw(Array(head.utf8) + [UInt8](repeating: 0x62, count: 100_000)))
        defer { server.stop() }
        let fetched = try await ArchiveFetcher().fetch(server.url("/"), policy: Support.loopbackPolicy())
        #expect(fetched.bytes == [UInt8](repeating: 0x62, count: 5))
    }

    @Test func aBodyShorterThanItsContentLengthFails() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n"
        let server = try serve(.raw(Array(head.utf8) + [UInt8](repeating: 0x62, count: 10)))
        defer { server.stop() }
        #expect(await Support.fetchError(server.url("/"), Support.loopbackPolicy())?.code == .connectionFailed)
    }

    @Test func gzipBodiesAreDecoded() async throws {
        let original = try await Subprocess.shell("seq 1 20000")
        let compressed = try await Subprocess.shell("seq 1 20000 | gzip -n -9")
        let server = try serve(.response(status: 200, headers: ["Content-Encoding: gzip"], body: compressed))
        defer { server.stop() }
        let fetched = try await ArchiveFetcher().fetch(server.url("/"), policy: Support.loopbackPolicy())
        #expect(fetched.bytes == original)
    }

    /// 256 MiB of zeros in ~250 KB: the cap counts decoded bytes, so it fires after 1 MiB.
    @Test func aGzipBombStopsAtTheDecodedCap() async throws {
        let bomb = try await Subprocess.shell("head -c 268435456 /dev/zero | gzip -n -1")
        #expect(bomb.count < 2 * Self.megabyte)
        let server = try serve(.response(status: 200, headers: ["Content-Encoding: gzip"], body: bomb))
        defer { server.stop() }
        let error = await Support.fetchError(server.url("/"), Support.loopbackPolicy { $0.maxBytes = Self.megabyte })
        #expect(error?.code == .tooLarge)
    }

    @Test func aNestedGzipBombStopsAtTheDecodedCap() async throws {
        let bomb = try await Subprocess.shell("head -c 268435456 /dev/zero | gzip -n -9 | gzip -n -9")
        let server = try serve(.response(status: 200, headers: ["Content-Encoding: gzip, gzip"], body: bomb))
        defer { server.stop() }
        let error = await Support.fetchError(server.url("/"), Support.loopbackPolicy { $0.maxBytes = Self.megabyte })
        #expect(error?.code == .tooLarge)
    }

    /// A bomb sent without Content-Length (streamed until close) is capped the same way.
    @Test func aStreamedGzipBombStopsAtTheDecodedCap() async throws {
        let bomb = try await Subprocess.shell("head -c 67108864 /dev/zero | gzip -n -1")
        let server = try serve(.stream(chunk: bomb, count: 1, headers: ["Content-Encoding: gzip"]))
        defer { server.stop() }
        let error = await Support.fetchError(server.url("/"), Support.loopbackPolicy { $0.maxBytes = Self.megabyte })
        #expect(error?.code == .tooLarge)
    }

    @Test func theTotalTimeoutFires() async throws {
        let server = try serve(.stream(chunk: [0x63], interval: .milliseconds(50)))
        defer { server.stop() }
        let policy = Support.loopbackPolicy { $0.totalTimeout = .milliseconds(700); $0.lowSpeedLimit = 0 }
        let start = ContinuousClock.now
        let error = await Support.fetchError(server.url("/"), policy)
        #expect(error?.code == .timeout)
        // Not early (a hang is the suite's time limit).
        #expect(Support.seconds(since: start) >= 0.6)
    }

    @Test func theTotalTimeoutSpansRedirects() async throws {
        let server = try TestHTTPServer { request in
            TestHTTPServer.sleep(.milliseconds(300))  // each hop is slow, none alone too slow
            return FetchTestSupport.routes(request)
        }
        defer { server.stop() }
        let policy = Support.loopbackPolicy { $0.totalTimeout = .milliseconds(1000) }
        #expect(await Support.fetchError(server.url("/chain/5"), policy)?.code == .timeout)
    }

    @Test func aTrickleBelowTheLowSpeedLimitIsAborted() async throws {
        let server = try serve(.stream(chunk: [0x63], interval: .milliseconds(100)))
        defer { server.stop() }
        let policy = Support.loopbackPolicy {
            $0.lowSpeedLimit = 1000
            $0.lowSpeedTime = .seconds(1)
            $0.totalTimeout = .seconds(30)
        }
        let error = await Support.fetchError(server.url("/"), policy)
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("too slow") == true, "\(String(describing: error))")
    }

    /// A listener whose accept queue is full drops SYNs, so the connect never completes.
    @Test func theConnectTimeoutFires() async throws {
        let server = try TestHTTPServer(backlog: 0, accepting: false)
        defer { server.stop() }
        let fillers = (0..<3).map { _ in Self.connectWithoutWaiting(port: server.port) }
        defer { fillers.forEach { close($0) } }
        try await Task.sleep(for: .milliseconds(100))
        let policy = Support.loopbackPolicy { $0.connectTimeout = .milliseconds(300) }
        let error = await Support.fetchError(server.url("/"), policy)
        #expect(error?.code == .timeout, "\(String(describing: error))")
    }

    @Test func cancellingTheTaskAbortsTheTransfer() async throws {
        let server = try serve(.stream(chunk: [0x63], interval: .milliseconds(50)))
        defer { server.stop() }
        let policy = Support.loopbackPolicy { $0.lowSpeedLimit = 0; $0.totalTimeout = .seconds(60) }
        let task = Task { await Support.fetchError(server.url("/"), policy) }
        // Cancel once the transfer is under way: the origin has accepted the connection.
        let acceptDeadline = ContinuousClock.now + .seconds(30)
        while server.acceptCount == 0, ContinuousClock.now < acceptDeadline { try await Task.sleep(for: .milliseconds(2)) }
        #expect(server.acceptCount == 1, "the fetch never reached the origin")
        task.cancel()
        let error = await task.value
        #expect(error?.code == .cancelled)
    }

    private static func connectWithoutWaiting(port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return fd
    }
}
