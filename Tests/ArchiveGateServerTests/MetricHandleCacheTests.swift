@testable import ArchiveGateServer
import Testing

/// Metric handles made once per label set: the same series keeps counting, the cache stays bounded.
@Suite struct MetricHandleCacheTests {
    final class Handle: Sendable {}

    @Test func aHandleIsMadeOncePerKeyUpToTheCapacity() {
        let cache = MetricHandleCache<[String], Handle>()
        let first = cache.handle(["POST", "/v1/validate", "200"]) { Handle() }
        #expect(cache.handle(["POST", "/v1/validate", "200"]) { Handle() } === first)
        #expect(cache.handle(["POST", "/v1/validate", "422"]) { Handle() } !== first)
        for index in 0..<MetricHandleCache<[String], Handle>.capacity {
            _ = cache.handle(["method-\(index)"]) { Handle() }
        }
        // Full: a new key gets a fresh handle each time, nothing is kept.
        let overflow = cache.handle(["one-too-many"]) { Handle() }
        #expect(cache.handle(["one-too-many"]) { Handle() } !== overflow)
        #expect(cache.handle(["POST", "/v1/validate", "200"]) { Handle() } === first)
    }

    /// Through the server: three requests, one series each counting to three.
    @Test func repeatedRequestsCountInOneSeries() async throws {
        try await TestServer.run { port in
            for _ in 0..<3 {
                _ = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: try Fixtures.noteArchive())
            }
            let metrics = try await TestServer.send("/metrics", method: .GET, port: port).text
            #expect(metrics.contains(#"archivegate_http_requests_total{method="POST",route="/v1/validate",status="200"} 3"#))
            #expect(metrics.contains(#"archivegate_http_request_duration_seconds_count{method="POST",route="/v1/validate"} 3"#))
            let violations = metrics.split(separator: "\n").filter { $0.hasPrefix("archivegate_policy_violations_total{") }
            #expect(!violations.isEmpty && violations.allSatisfy { $0.hasSuffix(" 3") }, "\(violations)")
            let archives = metrics.split(separator: "\n").filter { $0.hasPrefix("archivegate_archive_bytes_count{") }
            #expect(archives.count == 1 && archives.allSatisfy { $0.hasSuffix(" 3") }, "\(archives)")
        }
    }
}
