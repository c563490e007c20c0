import ArchiveGateCore
import ArchiveGateTestSupport
import Foundation
import Testing

/// Danger findings over HTTP: in the report, in the metrics per code and tenant, and `?nested=true`.
@Suite struct DangerFindingEndpointTests {
    static func predicateInArray() -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let predicateClass = builder.classRecord("NSComparisonPredicate", chain: ["NSComparisonPredicate", "NSPredicate", "NSObject"])
        let predicate = builder.object(class: predicateClass, fields: ["NSPredicateOperator": .uid(KeyedArchiveBuilder.null)])
        builder.setTop("root", builder.array(of: [predicate]))
        return builder.binary()
    }

    @Test func findingsAreReportedAndCountedPerCodeAndTenant() async throws {
        try await TestServer.run { port in
            let inspection = try await TestServer.send("/v1/validate", port: port, key: TestTenant.beta.key, body: Self.predicateInArray())
            #expect(inspection.status == 200)
            // An inspection tenant is shown the finding without a refusal, but never told it is valid.
            #expect(inspection.json["valid"] as? Bool == false)
            #expect(inspection.json["verdict"] as? String == "acceptedWithFindings")
            let findings = inspection.json["findings"] as? [[String: Any]] ?? []
            #expect(findings.first?["code"] as? String == "danger.predicate")
            #expect(findings.first?["path"] as? String == "/root/0")
            let gate = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: Self.predicateInArray())
            #expect(gate.json["valid"] as? Bool == false)
            #expect(gate.json["verdict"] as? String == "rejected")
            let metrics = try await TestServer.send("/metrics", method: .GET, port: port)
            #expect(metrics.text.contains(#"archivegate_danger_findings_total{code="danger.predicate",tenant="beta"} 1"#), "\(metrics.text)")
        }
    }

    /// `/v1/fetch` (stored or not) and `/v1/archives` count findings as `/v1/validate` does.
    @Test func fetchedAndStoredArchivesCountTheirFindings() async throws {
        let archive = Self.predicateInArray()
        let origin = try TestHTTPServer { _ in .response(status: 200, headers: ["Content-Type: application/octet-stream"], body: archive) }
        defer { origin.stop() }
        try await ResultEndpointTests.withStore(configure: FetchEndpointTests.allowLoopback) { port, _ in
            let metricLine = #"archivegate_danger_findings_total{code="danger.predicate",tenant="alpha"} "#
            func count() async throws -> String? {
                let metrics = try await TestServer.send("/metrics", method: .GET, port: port)
                return metrics.text.split(separator: "\n").first { $0.hasPrefix(metricLine) }.map { String($0.dropFirst(metricLine.count)) }
            }
            let fetched = try await FetchEndpointTests.post(FetchEndpointTests.fetchBody(origin.url("/a")), port: port)
            #expect(fetched.status == 200, "\(fetched.text)")
            #expect(try await count() == "1")
            let stored = try await TestServer.send("/v1/archives", port: port, key: TestTenant.alpha.key, body: archive)
            #expect(stored.status == 201, "\(stored.text)")
            #expect(try await count() == "2")
            let fetchedAndStored = try await FetchEndpointTests.post(
                FetchEndpointTests.fetchBody(origin.url("/b"), extra: #","store":true"#), port: port)
            #expect(fetchedAndStored.status == 200 || fetchedAndStored.status == 201, "\(fetchedAndStored.text)")
            #expect(try await count() == "3")
        }
    }

    @Test func convertWithNestedRendersTheNestedArchiveInPlace() async throws {
        var outer = KeyedArchiveBuilder()
        let data = outer.add(.data(Self.predicateInArray()))
        outer.setTop("root", outer.array(of: [data]))
        let bytes = outer.binary()
        try await TestServer.run { port in
            let flat = try await TestServer.send("/v1/convert", port: port, key: TestTenant.beta.key, body: bytes)
            #expect(flat.status == 200, "\(flat.text)")
            #expect(!flat.text.contains("$archive"))
            let nested = try await TestServer.send("/v1/convert?nested=true", port: port, key: TestTenant.beta.key, body: bytes)
            #expect(nested.status == 200, "\(nested.text)")
            #expect(nested.text.hasPrefix(#"{"root":[{"$archive":{"root":[{"$class":"NSComparisonPredicate""#), "\(nested.text)")
        }
    }

    @Test func nestedMustBeTrueOrFalse() async throws {
        try await TestServer.run { port in
            let reply = try await TestServer.send("/v1/validate?nested=maybe", port: port, key: TestTenant.beta.key, body: Self.predicateInArray())
            #expect(reply.status == 400)
        }
    }
}
