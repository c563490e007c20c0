import NIOHTTP1
import Testing

/// The 405 table is read from the router: every registered path answers 405 with `Allow` for
/// another method, unknown paths 404.
@Suite struct MethodNotAllowedTests {
    @Test(arguments: [
        ("/v1/validate", "GET", "POST"), ("/v1/convert", "DELETE", "POST"), ("/v1/fetch", "GET", "POST"),
        ("/v1/archives", "PUT", "GET, POST"), ("/v1/archives/abc", "POST", "GET, DELETE"),
        ("/v1/archives/abc/json", "DELETE", "GET"), ("/healthz", "POST", "GET"), ("/readyz", "PUT", "GET"),
        ("/metrics", "POST", "GET"), ("/openapi.yaml", "DELETE", "GET"),
    ])
    func registeredPathsAnswer405WithAllow(path: String, method: String, allow: String) async throws {
        try await TestServer.run { port in
            let reply = try await TestServer.send(path, method: .RAW(value: method), port: port, key: TestTenant.alpha.key)
            #expect(reply.status == 405, "\(method) \(path)")
            #expect(reply.headers.first(name: "Allow") == allow, "\(method) \(path)")
        }
    }

    @Test func unknownPathsAre404() async throws {
        try await TestServer.run { port in
            let nothing = try await TestServer.send("/v1/nothing", method: .GET, port: port, key: TestTenant.alpha.key)
            let tooDeep = try await TestServer.send("/v1/archives/a/b/c", method: .GET, port: port, key: TestTenant.alpha.key)
            #expect(nothing.status == 404)
            #expect(tooDeep.status == 404)
        }
    }
}
