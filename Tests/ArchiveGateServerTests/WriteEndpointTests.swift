import ArchiveGateCore
import ArchiveGateServer
import Foundation
import Testing

/// `/v1/encode` and `/v1/sanitize` over real HTTP.
@Suite struct WriteEndpointTests {
    static let payload = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/payload.archive")

    @Test func typedJSONFromConvertEncodesBackToTheSameGraph() async throws {
        let archive = try Fixtures.plainArchive()
        try await TestServer.run { port in
            let typed = try await TestServer.send("/v1/convert?mode=typed", port: port, key: TestTenant.alpha.key, body: archive)
            #expect(typed.status == 200)
            for format in ["binary", "xml"] {
                let encoded = try await TestServer.send("/v1/encode?format=\(format)", port: port, key: TestTenant.alpha.key,
                                                        body: typed.body, contentType: "application/json")
                #expect(encoded.status == 200, "\(encoded.text)")
                #expect(encoded.headers.first(name: "Content-Type") == (format == "xml" ? "application/x-plist" : "application/octet-stream"))
                let again = try await TestServer.send("/v1/convert?mode=typed", port: port, key: TestTenant.alpha.key, body: encoded.body)
                #expect(again.body == typed.body)
            }
        }
    }

    @Test func badTypedJSONIs422WithThePointer() async throws {
        let json = #"{"$archiver":"NSKeyedArchiver","$version":100000,"$top":{"root":{"$uid":5}},"$objects":["$null"]}"#
        try await TestServer.run { port in
            let reply = try await TestServer.send("/v1/encode", port: port, key: TestTenant.alpha.key, body: Array(json.utf8),
                                                  contentType: "application/json")
            #expect(reply.status == 422)
            #expect(reply.json["code"] as? String == "archive.dangling_uid")
            #expect((reply.json["detail"] as? String)?.contains("/$top/root") == true, "\(reply.text)")
            let wrongType = try await TestServer.send("/v1/encode", port: port, key: TestTenant.alpha.key, body: Array(json.utf8))
            #expect(wrongType.status == 415)
            let noKey = try await TestServer.send("/v1/encode", port: port, body: Array(json.utf8), contentType: "application/json")
            #expect(noKey.status == 401)
        }
    }

    @Test func sanitizeUnderRedactAnswersACleanArchive() async throws {
        let archive = try Array(Data(contentsOf: Self.payload))
        try await TestServer.run { port in
            let reply = try await TestServer.send("/v1/sanitize", port: port, key: TestTenant.redactor.key, body: archive)
            #expect(reply.status == 200)
            #expect(reply.headers.first(name: "X-ArchiveGate-Violations") == "1")
            let converted = try await TestServer.send("/v1/convert", port: port, key: TestTenant.alpha.key, body: reply.body)
            #expect(converted.text == #"{"root":null}"#)
            let graph = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSDictionary.self], from: Data(reply.body))
            #expect(graph == nil)
        }
    }

    @Test func sanitizeRejectedIs422ExactlyAsConvert() async throws {
        let archive = try Array(Data(contentsOf: Self.payload))
        try await TestServer.run { port in
            let sanitized = try await TestServer.send("/v1/sanitize", port: port, key: TestTenant.alpha.key, body: archive)
            let converted = try await TestServer.send("/v1/convert", port: port, key: TestTenant.alpha.key, body: archive)
            #expect(sanitized.status == 422)
            #expect(sanitized.json["code"] as? String == "policy.rejected")
            #expect(sanitized.json["detail"] as? String == converted.json["detail"] as? String)
            #expect((sanitized.json["violations"] as? [[String: Any]])?.count == (converted.json["violations"] as? [[String: Any]])?.count)
            let metrics = try await TestServer.send("/metrics", method: .GET, port: port)
            #expect(metrics.text.contains(#"archivegate_writes_total{operation="sanitize",outcome="rejected",tenant="alpha"} 1"#))
        }
    }
}
