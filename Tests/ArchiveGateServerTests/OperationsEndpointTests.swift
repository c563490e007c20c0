import ArchiveGateServer
import Foundation
import Testing

/// `/healthz`, `/readyz`, `/metrics`, `/openapi.yaml` and the request-id contract.
@Suite struct OperationsEndpointTests {
    @Test func healthAndReadiness() async throws {
        try await TestServer.run { port in
            let health = try await TestServer.send("/healthz", method: .GET, port: port)
            #expect(health.status == 200)
            #expect(health.json["status"] as? String == "ok")
            let ready = try await TestServer.send("/readyz", method: .GET, port: port)
            #expect(ready.status == 200)
            #expect(ready.json["tenants"] as? Int == TestTenant.allCases.count)
        }
    }

    @Test func metricsCountRequestsViolationsAndArchiveBytes() async throws {
        try await TestServer.run { port in
            _ = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: try Fixtures.noteArchive())
            let metrics = try await TestServer.send("/metrics", method: .GET, port: port)
            #expect(metrics.status == 200)
            #expect(metrics.headers.first(name: "Content-Type")?.hasPrefix("text/plain") == true)
            #expect(metrics.text.contains(#"archivegate_http_requests_total{method="POST",route="/v1/validate",status="200"} 1"#))
            #expect(metrics.text.contains("archivegate_http_request_duration_seconds_bucket"))
            #expect(metrics.text.contains("archivegate_archive_bytes_bucket"))
            #expect(metrics.text.contains("archivegate_policy_violations_total{code=\"policy."))
        }
    }

    @Test func openAPIDocumentIsServedAndNamesEveryRoute() async throws {
        try await TestServer.run { port in
            let reply = try await TestServer.send("/openapi.yaml", method: .GET, port: port)
            #expect(reply.status == 200)
            #expect(reply.headers.first(name: "Content-Type") == "application/yaml")
            #expect(reply.text.hasPrefix("openapi: 3.1.0"))
            for path in ["/v1/validate:", "/v1/convert:", "/v1/encode:", "/v1/sanitize:", "/v1/fetch:", "/validate:", "/convert:", "/healthz:", "/version:", "/readyz:", "/metrics:", "/openapi.yaml:"] {
                #expect(reply.text.contains("  \(path)\n"), "missing \(path)")
            }
        }
    }

    @Test func saneRequestIdsAreEchoedOthersReplaced() async throws {
        try await TestServer.run { port in
            let echoed = try await TestServer.send("/healthz", method: .GET, port: port, headers: [("X-Request-Id", "trace-42.a:b_c")])
            #expect(echoed.headers.first(name: "X-Request-Id") == "trace-42.a:b_c")
            let replaced = try await TestServer.send("/healthz", method: .GET, port: port, headers: [("X-Request-Id", "bad id with spaces")])
            let generated = try #require(replaced.headers.first(name: "X-Request-Id"))
            #expect(generated != "bad id with spaces")
            #expect(generated.count == 32)
            let none = try await TestServer.send("/healthz", method: .GET, port: port)
            #expect(none.headers.first(name: "X-Request-Id")?.count == 32)
        }
    }
}
