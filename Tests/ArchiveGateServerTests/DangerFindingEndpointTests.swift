import ArchiveGateCore
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
            #expect(inspection.json["valid"] as? Bool == true)
            let findings = inspection.json["findings"] as? [[String: Any]] ?? []
            #expect(findings.first?["code"] as? String == "danger.predicate")
            #expect(findings.first?["path"] as? String == "/root/0")
            let gate = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: Self.predicateInArray())
            #expect(gate.json["valid"] as? Bool == false)
            let metrics = try await TestServer.send("/metrics", method: .GET, port: port)
            #expect(metrics.text.contains(#"archivegate_danger_findings_total{code="danger.predicate",tenant="beta"} 1"#), "\(metrics.text)")
        }
    }

    @Test func nestedMustBeTrueOrFalse() async throws {
        try await TestServer.run { port in
            let reply = try await TestServer.send("/v1/validate?nested=maybe", port: port, key: TestTenant.beta.key, body: Self.predicateInArray())
            #expect(reply.status == 400)
        }
    }
}
