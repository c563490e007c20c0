import ArchiveGateServer
import Foundation
import Testing

/// Every error status the API documents, each as problem+json with a request id.
@Suite struct ErrorStatusTests {
    @Test func missingOrWrongKeyIs401WithChallenge() async throws {
        let archive = try Fixtures.plainArchive()
        try await TestServer.run { port in
            let missing = try await TestServer.send("/v1/validate", port: port, body: archive)
            #expect(missing.status == 401)
            #expect(missing.headers.first(name: "WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(missing.json["code"] as? String == "auth.unauthorized")

            let wrong = try await TestServer.send("/v1/validate", port: port, key: "not-a-key", body: archive)
            #expect(wrong.status == 401)
            #expect(wrong.headers.first(name: "WWW-Authenticate")?.contains("invalid_token") == true)

            let basic = try await TestServer.send("/v1/validate", port: port, body: archive,
                                                  headers: [("Authorization", "Basic \(TestTenant.alpha.key)")])
            #expect(basic.status == 401)
        }
    }

    @Test func oversizeBodyIs413AndTheServerStaysHealthy() async throws {
        try await TestServer.run { port in
            let big = [UInt8](repeating: 7, count: 64 * 1024)
            let reply = try await TestServer.send("/v1/validate", port: port, key: TestTenant.tiny.key, body: big)
            #expect(reply.status == 413)
            #expect(reply.json["code"] as? String == "request.body_too_large")
            let health = try await TestServer.send("/healthz", method: .GET, port: port)
            #expect(health.status == 200)
            let after = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: try Fixtures.plainArchive())
            #expect(after.status == 200)
        }
    }

    @Test func unsupportedTypeOrEncodingIs415() async throws {
        let archive = try Fixtures.plainArchive()
        try await TestServer.run { port in
            let type = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: archive, contentType: "text/plain")
            #expect(type.status == 415)
            #expect(type.json["code"] as? String == "request.unsupported_media_type")
            let encoding = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: archive,
                                                     headers: [("Content-Encoding", "br")])
            #expect(encoding.status == 415)
            #expect(encoding.json["code"] as? String == "request.unsupported_encoding")
        }
    }

    @Test func badGzipIs400() async throws {
        let gzip = try Fixtures.gzip(try Fixtures.plainArchive())
        try await TestServer.run { port in
            let corrupt = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key,
                                                    body: Array("definitely not gzip".utf8), headers: [("Content-Encoding", "gzip")])
            #expect(corrupt.status == 400)
            #expect(corrupt.json["code"] as? String == "request.invalid_gzip")
            let truncated = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key,
                                                      body: Array(gzip.dropLast(12)), headers: [("Content-Encoding", "gzip")])
            #expect(truncated.status == 400)
            let trailing = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key,
                                                     body: gzip + [1, 2, 3], headers: [("Content-Encoding", "gzip")])
            #expect(trailing.status == 400)
        }
    }

    @Test func overTheRateLimitIs429WithRetryAfter() async throws {
        // The tenant may make 1 request/s with a burst of 3. Twelve requests sent at once cannot all
        // be served however slowly the machine runs them (sent one after another, each taking a
        // second on a loaded machine, they could be): the burst is served, the rest get 429.
        let archive = try Fixtures.plainArchive()
        try await TestServer.run { port in
            let replies = try await withThrowingTaskGroup(of: TestReply.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await TestServer.send("/v1/validate", port: port, key: TestTenant.tiny.key, body: archive) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let statuses = replies.map(\.status)
            #expect(statuses.allSatisfy { $0 == 200 || $0 == 429 }, "\(statuses)")
            #expect(statuses.filter { $0 == 200 }.count >= 3, "the burst is served: \(statuses)")
            let limited = replies.filter { $0.status == 429 }
            #expect(!limited.isEmpty, "\(statuses)")
            for reply in limited {
                #expect(reply.json["code"] as? String == "tenant.rate_limited")
                #expect(reply.headers.first(name: "Retry-After").flatMap(Int.init).map { $0 >= 1 } == true)
            }
        }
    }

    @Test func unknownRouteIs404ProblemJSON() async throws {
        try await TestServer.run { port in
            let reply = try await TestServer.send("/v1/nothing-here", method: .GET, port: port, key: TestTenant.alpha.key)
            #expect(reply.status == 404)
            #expect(reply.headers.first(name: "Content-Type") == "application/problem+json")
            #expect(reply.json["code"] as? String == "request.not_found")
            #expect(reply.headers.first(name: "X-Request-Id") != nil)
        }
    }
}
