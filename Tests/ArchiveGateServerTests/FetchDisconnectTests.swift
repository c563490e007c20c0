@testable import ArchiveGateServer
import ArchiveGateTestSupport
import Foundation
import Testing

/// A `/v1/fetch` whose client goes away stops its libcurl transfer instead of running on to the
/// total timeout for nobody.
@Suite struct FetchDisconnectTests {
    /// Polls `condition` until it holds or `timeout` passes; whether it held.
    static func waitUntil(_ timeout: Duration, _ condition: () -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if condition() { return true }
            TestHTTPServer.sleep(.milliseconds(20))
        }
        return condition()
    }

    @Test func aClientThatLeavesStopsItsFetch() async throws {
        // An origin that never finishes: one byte every 100 ms until its client stops reading.
        let origin = try TestHTTPServer { _ in .stream(chunk: [0x41], interval: .milliseconds(100)) }
        defer { origin.stop() }
        try await TestServer.run(configure: {
            FetchEndpointTests.allowLoopback(&$0)
            $0.fetch.totalTimeout = .seconds(120)
            $0.fetch.maxConcurrentPerTenant = 1
        }) { port in
            let body = FetchEndpointTests.fetchBody(origin.url("/stall"))
            let head = "POST /v1/fetch HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(TestTenant.alpha.key)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            let originLifetime = try await offCooperativePool { () throws -> Duration? in
                let connection = try RawConnection(port: port)
                _ = connection.send(Array(head.utf8) + body)
                // The fetch is under way once the origin has its connection; then the client leaves.
                // Both waits are for events; their caps only stop a hang, and stay well inside the
                // 120 s total timeout that a transfer nobody cancelled would run to (a busy machine
                // can take seconds to get there, so no tighter bound proves more).
                let started = Self.waitUntil(.seconds(60)) { origin.acceptCount == 1 }
                connection.close()
                guard started else { return nil }
                let clock = ContinuousClock()
                let left = clock.now
                guard Self.waitUntil(.seconds(60), { origin.finishedCount == 1 }) else { return nil }
                return clock.now - left
            }
            let lifetime = try #require(originLifetime, "the fetch never started, or the origin's connection outlived the client by 60 s (total timeout 120 s)")
            #expect(lifetime < .seconds(60), "the transfer ran \(lifetime) after the client left")

            let cancelled = #"archivegate_fetches_total{outcome="fetch.cancelled",tenant="alpha"} 1"#
            var metrics = ""
            for _ in 0..<50 where !metrics.contains(cancelled) {
                metrics = try await TestServer.send("/metrics", method: .GET, port: port).text
                if !metrics.contains(cancelled) { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(metrics.contains(cancelled), "\(metrics.split(separator: "\n").filter { $0.contains("fetches_total") })")

            // The tenant's only fetch slot is free again: the next fetch is answered, not 429.
            let answering = try TestHTTPServer { _ in .response(status: 404) }
            defer { answering.stop() }
            let next = try await FetchEndpointTests.post(FetchEndpointTests.fetchBody(answering.url("/next")), port: port)
            #expect(next.status == 502, "\(next.text)")
        }
    }
}
