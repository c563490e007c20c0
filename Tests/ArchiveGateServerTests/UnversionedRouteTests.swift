import ArchiveGateCore
import ArchiveGateServer
import Foundation
import NIOHTTP1
import Testing

/// Issue 33: the unversioned paths (`POST /validate`, …) are the same routes as `/v1/…` — the
/// same authentication, state and answers, not redirects — and `GET /version` and `/healthz`
/// carry `archivegate --version`'s string. Everything over real loopback HTTP.
@Suite struct UnversionedRouteTests {
    /// The paths the OpenAPI document lists (`  /path:` lines under `paths:`).
    static func documentedPaths(_ yaml: String) -> [String] {
        yaml.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") else { return nil }
            return String(line.dropFirst(2).dropLast())
        }
    }

    @Test func everyDocumentedV1PathIsServedAndDocumentedWithoutThePrefix() async throws {
        try await TestServer.run { port in
            let document = try await TestServer.send("/openapi.yaml", method: .GET, port: port)
            let paths = Self.documentedPaths(document.text)
            let versioned = paths.filter { $0.hasPrefix("/v1/") }
            #expect(versioned.contains("/v1/validate") && versioned.count >= 10, "\(versioned)")
            for path in versioned {
                let bare = String(path.dropFirst(3))
                #expect(paths.contains(bare), "\(bare) is not in openapi.yaml")
                // Unauthenticated: both answer 401 (the API's middleware guards the bare path too),
                // never 404; a method neither serves is 405 with the same Allow.
                let concrete = { (path: String) in path.replacingOccurrences(of: "{id}", with: "abc") }
                for candidate in [path, bare] {
                    let method: NIOHTTP1.HTTPMethod = candidate.hasSuffix("archives") || candidate.contains("{id}") ? .GET : .POST
                    let reply = try await TestServer.send(concrete(candidate), method: method, port: port, body: method == .POST ? [0] : nil)
                    #expect(reply.status == 401, "\(method) \(candidate): \(reply.status)")
                    #expect(reply.headers.first(name: "WWW-Authenticate")?.hasPrefix("Bearer") == true, "\(candidate)")
                }
                let refused = try await TestServer.send(concrete(bare), method: .PATCH, port: port, key: TestTenant.alpha.key)
                let refusedV1 = try await TestServer.send(concrete(path), method: .PATCH, port: port, key: TestTenant.alpha.key)
                #expect(refused.status == 405, "PATCH \(bare)")
                #expect(refused.headers.first(name: "Allow") == refusedV1.headers.first(name: "Allow"), "PATCH \(bare)")
            }
        }
    }

    @Test func validateAndConvertAnswerTheSameWithAndWithoutV1() async throws {
        let note = try Fixtures.noteArchive()
        try await TestServer.run { port in
            for tenant in [TestTenant.alpha, .beta] {
                let versioned = try await TestServer.send("/v1/validate", port: port, key: tenant.key, body: note)
                let bare = try await TestServer.send("/validate", port: port, key: tenant.key, body: note)
                #expect(bare.status == 200)
                #expect(bare.status == versioned.status)
                #expect(bare.json["verdict"] as? String == versioned.json["verdict"] as? String)
                #expect(bare.json["valid"] as? Bool == (tenant == .beta))
                #expect(bare.json["valid"] as? Bool == versioned.json["valid"] as? Bool)
            }
            let versioned = try await TestServer.send("/v1/convert?mode=typed", port: port, key: TestTenant.beta.key, body: note)
            let bare = try await TestServer.send("/convert?mode=typed", port: port, key: TestTenant.beta.key, body: note)
            #expect(bare.status == 200)
            #expect(bare.body == versioned.body)
            #expect(bare.headers.first(name: "Content-Type") == versioned.headers.first(name: "Content-Type"))
        }
    }

    /// A result stored through one prefix is read, listed and deleted through the other.
    @Test func storedResultsAreTheSameResourceUnderBothPrefixes() async throws {
        let archive = try Fixtures.plainArchive()
        try await ResultEndpointTests.withStore { port, _ in
            let created = try await TestServer.send("/archives", port: port, key: TestTenant.alpha.key, body: archive)
            #expect(created.status == 201)
            let id = try #require(created.json["id"] as? String)
            #expect(created.headers.first(name: "Location") == "/v1/archives/\(id)")
            let shown = try await TestServer.send("/v1/archives/\(id)/json", method: .GET, port: port, key: TestTenant.alpha.key)
            #expect(shown.status == 200)
            let listed = try await TestServer.send("/archives", method: .GET, port: port, key: TestTenant.alpha.key)
            #expect((listed.json["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [id])
            let deleted = try await TestServer.send("/archives/\(id)", method: .DELETE, port: port, key: TestTenant.alpha.key)
            #expect(deleted.status == 204)
            let gone = try await TestServer.send("/v1/archives/\(id)", method: .GET, port: port, key: TestTenant.alpha.key)
            #expect(gone.status == 404)
        }
    }

    @Test func versionAndHealthCarryTheCLIsVersionWithoutCredentials() async throws {
        try await TestServer.run { port in
            let version = try await TestServer.send("/version", method: .GET, port: port)
            #expect(version.status == 200)
            #expect(version.headers.first(name: "Content-Type") == "application/json")
            #expect(version.json as NSDictionary == ["version": ArchiveGateVersion.string] as NSDictionary)
            let health = try await TestServer.send("/healthz", method: .GET, port: port)
            #expect(health.json["version"] as? String == ArchiveGateVersion.string)
            #expect(health.json["status"] as? String == "ok")
        }
    }
}
