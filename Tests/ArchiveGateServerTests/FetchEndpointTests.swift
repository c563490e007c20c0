import ArchiveGateTestSupport
import ArchiveGateFetch
import ArchiveGateServer
import Foundation
import Testing

/// `POST /v1/fetch` over real HTTP, fetching from an origin server on 127.0.0.1.
@Suite struct FetchEndpointTests {
    /// The test configuration: loopback allowed (the default denies it), a small byte cap.
    static func allowLoopback(_ configuration: inout ServerConfiguration) {
        configuration.fetch.allowedRanges = [IPAddressRange("127.0.0.0/8")!]
        configuration.fetch.maxBytes = 1 << 20
        configuration.fetch.totalTimeout = .seconds(10)
    }

    static func fetchBody(_ url: String, extra: String = "") -> [UInt8] {
        Array(#"{"url":"\#(url)"\#(extra)}"#.utf8)
    }

    static func post(_ body: [UInt8], port: Int, key: String = TestTenant.alpha.key) async throws -> TestReply {
        try await TestServer.send("/v1/fetch", port: port, key: key, body: body, contentType: "application/json")
    }

    @Test func fetchesAndValidatesAnArchiveFromAnAllowedRange() async throws {
        let archive = try Fixtures.plainArchive()
        let notes = try Fixtures.noteArchive()
        let origin = try TestHTTPServer { request in
            .response(status: 200, headers: ["Content-Type: application/octet-stream"],
                      body: request.path == "/note.archive" ? notes : archive)
        }
        defer { origin.stop() }
        try await TestServer.run(configure: Self.allowLoopback) { port in
            let reply = try await Self.post(Self.fetchBody(origin.url("/demo.archive"), extra: #","mode":"plain","store":false"#), port: port)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.headers.first(name: "Content-Type") == "application/json")
            #expect(reply.json["valid"] as? Bool == true)
            #expect(reply.json["policy"] as? String == "alpha")

            // The same report as an upload of the same bytes.
            let uploaded = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: archive)
            #expect(reply.text == uploaded.text)

            // A policy violation is still a 200 report, as for /v1/validate.
            let rejected = try await Self.post(Self.fetchBody(origin.url("/note.archive")), port: port)
            #expect(rejected.status == 200)
            #expect(rejected.json["valid"] as? Bool == false)

            let metrics = try await TestServer.send("/metrics", method: .GET, port: port)
            #expect(metrics.text.contains(#"archivegate_fetches_total{outcome="ok",tenant="alpha"} 2"#), "\(metrics.text)")
        }
    }

    @Test func loopbackIsBlockedByDefault() async throws {
        let origin = try TestHTTPServer { _ in .response(status: 200, body: [1, 2, 3]) }
        defer { origin.stop() }
        try await TestServer.run { port in
            let reply = try await Self.post(Self.fetchBody(origin.url("/demo.archive")), port: port)
            #expect(reply.status == 403, "\(reply.text)")
            #expect(reply.headers.first(name: "Content-Type") == "application/problem+json")
            #expect(reply.json["code"] as? String == "fetch.blocked_destination")
            #expect(reply.json["type"] as? String == "https://archivegate.dev/problems/fetch.blocked_destination")
        }
        #expect(origin.acceptCount == 0)
    }

    @Test func endlessBodyIs413() async throws {
        let origin = try TestHTTPServer { _ in .stream(chunk: [UInt8](repeating: 0x41, count: 16 << 10)) }
        defer { origin.stop() }
        try await TestServer.run(configure: Self.allowLoopback) { port in
            let reply = try await Self.post(Self.fetchBody(origin.url("/endless")), port: port)
            #expect(reply.status == 413, "\(reply.text)")
            #expect(reply.json["code"] as? String == "fetch.too_large")
        }
    }

    @Test func upstreamErrorsAndNotAnArchive() async throws {
        let origin = try TestHTTPServer { request in
            request.path == "/missing" ? .response(status: 404) : .response(status: 200, body: Array("not a plist".utf8))
        }
        defer { origin.stop() }
        try await TestServer.run(configure: Self.allowLoopback) { port in
            let missing = try await Self.post(Self.fetchBody(origin.url("/missing")), port: port)
            #expect(missing.status == 502, "\(missing.text)")
            #expect(missing.json["code"] as? String == "fetch.upstream_status")

            let garbage = try await Self.post(Self.fetchBody(origin.url("/garbage")), port: port)
            #expect(garbage.status == 422, "\(garbage.text)")
        }
    }

    @Test func badRequestsAre400() async throws {
        try await TestServer.run(configure: Self.allowLoopback) { port in
            for body in [#"{"url":"http://127.0.0.1/","extra":1}"#, #"{"mode":"plain"}"#, #"[]"#, #"not json"#,
                         #"{"url":"http://127.0.0.1/","store":1}"#, #"{"url":"http://127.0.0.1/","mode":"fancy"}"#,
                         #"{"url":"ftp://127.0.0.1/a"}"#, #"{"url":"::::"}"#] {
                let reply = try await Self.post(Array(body.utf8), port: port)
                #expect(reply.status == 400, "\(body): \(reply.text)")
                #expect(reply.headers.first(name: "Content-Type") == "application/problem+json")
            }
            let stored = try await Self.post(Self.fetchBody("http://127.0.0.1/", extra: #","store":true"#), port: port)
            #expect(stored.status == 503, "without a store, store: true is refused before fetching")
            #expect(stored.json["code"] as? String == "store.disabled")

            let anonymous = try await TestServer.send("/v1/fetch", port: port, body: Self.fetchBody("http://127.0.0.1/"),
                                                      contentType: "application/json")
            #expect(anonymous.status == 401)
        }
    }

    @Test func concurrentFetchesPerTenantAreLimited() async throws {
        // Each fetch stalls on a slow body; the limit is 1, so a second one at the same time is a 429.
        // The body takes 10 s, so the first fetch still runs when the second arrives even on a
        // heavily loaded machine (with 2 s it had sometimes finished: the second got its 422).
        let origin = try TestHTTPServer { _ in .stream(chunk: [0x41], interval: .milliseconds(100), count: 100) }
        defer { origin.stop() }
        try await TestServer.run(configure: { configuration in
            Self.allowLoopback(&configuration)
            configuration.fetch.maxConcurrentPerTenant = 1
        }) { port in
            let url = origin.url("/slow")
            async let first = Self.post(Self.fetchBody(url), port: port)
            // Wait until the origin has the first fetch's connection.
            for _ in 0..<200 where origin.acceptCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
            let second = try await Self.post(Self.fetchBody(url), port: port)
            #expect(second.status == 429, "\(second.text)")
            #expect(second.json["code"] as? String == "fetch.concurrency_limited")
            #expect(second.headers.first(name: "Retry-After") == "1")
            // Another tenant has its own slots.
            let other = try await Self.post(Self.fetchBody(origin.url("/missing")), port: port, key: TestTenant.beta.key)
            #expect(other.status != 429)
            _ = try await first
        }
    }
}
