import ArchiveGateServer
import Foundation
import Testing

/// `/v1/validate` and `/v1/convert` over real HTTP, with archives made by NSKeyedArchiver.
@Suite struct ArchiveEndpointTests {
    @Test func twoTenantsGiveDifferentVerdictsOnTheSameArchive() async throws {
        let archive = try Fixtures.noteArchive()
        try await TestServer.run { port in
            let alpha = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: archive)
            #expect(alpha.status == 200)
            #expect(alpha.json["valid"] as? Bool == false)
            #expect(alpha.json["policy"] as? String == "alpha")
            let violations = try #require(alpha.json["violations"] as? [[String: Any]])
            #expect(violations.contains { ($0["class"] as? String) == Fixtures.noteClassName })

            let beta = try await TestServer.send("/v1/validate", port: port, key: TestTenant.beta.key, body: archive)
            #expect(beta.status == 200)
            #expect(beta.json["valid"] as? Bool == true)
            #expect(beta.headers.first(name: "Content-Type") == "application/json")
        }
    }

    @Test func convertReturnsPlainAndTypedJSON() async throws {
        let archive = try Fixtures.plainArchive()
        try await TestServer.run { port in
            let plain = try await TestServer.send("/v1/convert", port: port, key: TestTenant.alpha.key, body: archive)
            #expect(plain.status == 200)
            #expect(plain.topRoot["name"] as? String == "demo", "\(plain.text)")
            #expect(plain.topRoot["count"] as? Int == 3)
            #expect(plain.headers.first(name: "X-ArchiveGate-Violations") == "0")

            let typed = try await TestServer.send("/v1/convert?mode=typed", port: port, key: TestTenant.alpha.key,
                                                  body: archive, contentType: "application/x-plist")
            #expect(typed.status == 200)
            #expect(typed.text != plain.text)
            #expect((try? JSONSerialization.jsonObject(with: Data(typed.body))) != nil)
        }
    }

    @Test func convertRejectedByPolicyIs422WithViolations() async throws {
        let archive = try Fixtures.noteArchive()
        try await TestServer.run { port in
            let reply = try await TestServer.send("/v1/convert", port: port, key: TestTenant.alpha.key, body: archive)
            #expect(reply.status == 422)
            #expect(reply.headers.first(name: "Content-Type") == "application/problem+json")
            #expect(reply.json["type"] as? String == "https://archivegate.dev/problems/policy.rejected")
            #expect(reply.json["status"] as? Int == 422)
            let violations = try #require(reply.json["violations"] as? [[String: Any]])
            #expect(!violations.isEmpty)
            #expect(reply.json["requestId"] as? String == reply.headers.first(name: "X-Request-Id"))

            let accepted = try await TestServer.send("/v1/convert", port: port, key: TestTenant.beta.key, body: archive)
            #expect(accepted.status == 200)
        }
    }

    @Test func unknownModeIs400() async throws {
        try await TestServer.run { port in
            let reply = try await TestServer.send("/v1/convert?mode=fancy", port: port, key: TestTenant.alpha.key,
                                                  body: try Fixtures.plainArchive())
            #expect(reply.status == 400)
            #expect(reply.json["code"] as? String == "request.invalid")
        }
    }

    @Test func malformedArchiveIs422WithTheCoreCode() async throws {
        try await TestServer.run { port in
            let garbage = Array("bplist00 but not really a property list".utf8)
            let reply = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: garbage)
            #expect(reply.status == 422)
            let code = try #require(reply.json["code"] as? String)
            #expect(code.hasPrefix("plist.") || code.hasPrefix("archive."))
            #expect(reply.json["type"] as? String == "https://archivegate.dev/problems/" + code)

            let truncated = Array(try Fixtures.plainArchive().dropLast(10))
            let second = try await TestServer.send("/v1/convert", port: port, key: TestTenant.alpha.key, body: truncated)
            #expect(second.status == 422)
        }
    }

    @Test func gzipBodiesAreInflated() async throws {
        let archive = try Fixtures.plainArchive()
        try await TestServer.run { port in
            let reply = try await TestServer.send("/v1/convert", port: port, key: TestTenant.alpha.key,
                                                  body: try Fixtures.gzip(archive), headers: [("Content-Encoding", "gzip")])
            #expect(reply.status == 200)
            #expect(reply.topRoot["name"] as? String == "demo")
        }
    }
}
