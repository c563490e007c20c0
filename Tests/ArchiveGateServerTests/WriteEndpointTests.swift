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

/// `POST /v1/sanitize?envelope=json`: the archive and its violations in one JSON document.
@Suite struct SanitizeEnvelopeEndpointTests {
    @Test func theEnvelopeHoldsTheSameArchiveAndTheViolations() async throws {
        let archive = try Array(Data(contentsOf: WriteEndpointTests.payload))
        try await TestServer.run { port in
            let bare = try await TestServer.send("/v1/sanitize", port: port, key: TestTenant.redactor.key, body: archive)
            let enveloped = try await TestServer.send("/v1/sanitize?envelope=json", port: port, key: TestTenant.redactor.key, body: archive)
            #expect(enveloped.status == 200)
            #expect(enveloped.headers.first(name: "Content-Type") == "application/json")
            #expect(enveloped.headers.first(name: "X-ArchiveGate-Violations") == "1")
            let encoded = try #require(enveloped.json["archive"] as? String)
            #expect(Data(base64Encoded: encoded).map(Array.init) == bare.body)
            #expect(enveloped.json["format"] as? String == "binary")
            #expect(enveloped.json["violationsTruncated"] as? Bool == false)
            let violations = try #require(enveloped.json["violations"] as? [[String: Any]])
            let validated = try await TestServer.send("/v1/validate", port: port, key: TestTenant.redactor.key, body: archive)
            let reported = try #require(validated.json["violations"] as? [[String: Any]])
            #expect(violations.count == 1)
            #expect(violations.map { $0["code"] as? String } == reported.map { $0["code"] as? String })
            #expect(violations.map { $0["path"] as? String } == reported.map { $0["path"] as? String })
            #expect(violations.first?["code"] as? String == "policy.class_not_allowed")
            // The report (the core's one report writer) is the same as /v1/validate answers, and so is the verdict.
            #expect(enveloped.json["verdict"] as? String == "redacted")
            #expect(enveloped.headers.first(name: "X-ArchiveGate-Verdict") == "redacted")
            let report = try #require(enveloped.json["report"] as? [String: Any])
            #expect(NSDictionary(dictionary: report) == NSDictionary(dictionary: validated.json))

            let xml = try await TestServer.send("/v1/sanitize?envelope=json&format=xml", port: port, key: TestTenant.redactor.key, body: archive)
            #expect(xml.json["format"] as? String == "xml")
            let xmlText = try #require(xml.json["archive"] as? String)
            let xmlArchive = try #require(Data(base64Encoded: xmlText))
            #expect(xmlArchive.starts(with: Array("<?xml".utf8)))
        }
    }

    @Test func aCleanArchiveHasNoViolationsAndARejectedOneIsStill422() async throws {
        let clean = try Fixtures.plainArchive()
        let payload = try Array(Data(contentsOf: WriteEndpointTests.payload))
        try await TestServer.run { port in
            let reply = try await TestServer.send("/v1/sanitize?envelope=json", port: port, key: TestTenant.alpha.key, body: clean)
            #expect(reply.status == 200)
            #expect((reply.json["violations"] as? [Any])?.isEmpty == true)
            let rejected = try await TestServer.send("/v1/sanitize?envelope=json", port: port, key: TestTenant.alpha.key, body: payload)
            #expect(rejected.status == 422)
            #expect(rejected.json["code"] as? String == "policy.rejected")
            let bad = try await TestServer.send("/v1/sanitize?envelope=multipart", port: port, key: TestTenant.alpha.key, body: clean)
            #expect(bad.status == 400)
            #expect(bad.json["code"] as? String == "request.invalid")
        }
    }
}
