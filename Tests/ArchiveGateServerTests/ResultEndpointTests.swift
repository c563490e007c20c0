import ArchiveGateFetch
import ArchiveGateServer
import ArchiveGateStore
import ArchiveGateTestSupport
import AsyncHTTPClient
import Crypto
import Foundation
import Synchronization
import Testing

/// `/v1/archives` over real HTTP with a real SQLite file.
@Suite struct ResultEndpointTests {
    /// A clock the expiry test moves forward; the others leave it at the real time.
    final class TestClock: Sendable {
        private let offset = Mutex<TimeInterval>(0)
        func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
        var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
    }

    /// Runs `body` against a live server whose store is a fresh SQLite file in a temporary folder.
    static func withStore(
        retention: Duration = .seconds(3600),
        clock: TestClock = TestClock(),
        configure: @escaping (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (Int, SQLiteResultStore) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("archivegate-results-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await SQLiteResultStore.open(
            configuration: .init(path: folder.appendingPathComponent("results.sqlite").path, retention: retention),
            now: { clock.now })
        do {
            try await TestServer.run(configure: configure, store: store) { port in try await body(port, store) }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    static func post(_ archive: [UInt8], port: Int, key: String = TestTenant.alpha.key, query: String = "") async throws -> TestReply {
        try await TestServer.send("/v1/archives\(query)", port: port, key: key, body: archive)
    }

    static func get(_ path: String, port: Int, key: String = TestTenant.alpha.key, headers: [(String, String)] = []) async throws -> TestReply {
        try await TestServer.send(path, method: .GET, port: port, key: key, headers: headers)
    }

    /// A distinct small archive per `index` (Foundation classes only).
    static func archive(_ index: Int) throws -> [UInt8] {
        let root: NSDictionary = ["item": index as NSNumber, "label": "result \(index)" as NSString]
        return Array(try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: true))
    }

    /// A problem document without its request id, which is the only part allowed to differ.
    static func problemShape(_ reply: TestReply) -> [String: String] {
        var shape: [String: String] = ["status": String(reply.status), "content-type": reply.headers.first(name: "Content-Type") ?? ""]
        for (key, value) in reply.json where key != "requestId" { shape[key] = "\(value)" }
        return shape
    }

    @Test func postThenGetReturnsTheStoredResultAndJSON() async throws {
        let archive = try Fixtures.plainArchive()
        try await Self.withStore { port, _ in
            let created = try await Self.post(archive, port: port)
            #expect(created.status == 201, "\(created.text)")
            let id = try #require(created.json["id"] as? String)
            #expect(id.utf8.count == 22)
            #expect(created.headers.first(name: "Location") == "/v1/archives/\(id)")
            #expect(created.json["sha256"] as? String == SHA256.hash(data: archive).map { String(format: "%02x", $0) }.joined())
            #expect(created.json["size"] as? Int == archive.count)
            #expect(created.json["source"] as? String == "upload")
            #expect(created.json["mode"] as? String == "plain")
            #expect(created.json["hasJSON"] as? Bool == true)
            #expect((created.json["report"] as? [String: Any])?["valid"] as? Bool == true)
            let createdAt = try #require(created.json["createdAt"] as? String)
            #expect(createdAt.hasSuffix("Z") && createdAt.count == 24, "\(createdAt)")

            let metadata = try await Self.get("/v1/archives/\(id)", port: port)
            #expect(metadata.status == 200)
            #expect(metadata.body == created.body, "GET answers the document POST answered")

            // The stored JSON is what /v1/convert answers for the same bytes, byte for byte.
            let converted = try await TestServer.send("/v1/convert", port: port, key: TestTenant.alpha.key, body: archive)
            let json = try await Self.get("/v1/archives/\(id)/json", port: port)
            #expect(json.status == 200)
            #expect(json.headers.first(name: "Content-Type") == "application/json")
            #expect(json.body == converted.body)
            let etag = try #require(json.headers.first(name: "ETag"))
            #expect(etag == "\"\(id)\"")

            for condition in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
                let unchanged = try await Self.get("/v1/archives/\(id)/json", port: port, headers: [("If-None-Match", condition)])
                #expect(unchanged.status == 304, "If-None-Match: \(condition)")
                #expect(unchanged.body.isEmpty)
                #expect(unchanged.headers.first(name: "ETag") == etag)
            }
            let changed = try await Self.get("/v1/archives/\(id)/json", port: port, headers: [("If-None-Match", "\"other\"")])
            #expect(changed.status == 200)
            #expect(changed.body == converted.body)
        }
    }

    @Test func typedModeStoresTypedJSON() async throws {
        let archive = try Fixtures.plainArchive()
        try await Self.withStore { port, _ in
            let created = try await Self.post(archive, port: port, query: "?mode=typed")
            #expect(created.status == 201)
            #expect(created.json["mode"] as? String == "typed")
            let id = try #require(created.json["id"] as? String)
            let converted = try await TestServer.send("/v1/convert?mode=typed", port: port, key: TestTenant.alpha.key, body: archive)
            let json = try await Self.get("/v1/archives/\(id)/json", port: port)
            #expect(json.body == converted.body)

            let bad = try await Self.post(archive, port: port, query: "?mode=fancy")
            #expect(bad.status == 400)
        }
    }

    @Test func rejectedArchivesKeepTheirReportButNoJSON() async throws {
        let notes = try Fixtures.noteArchive()
        try await Self.withStore { port, _ in
            let created = try await Self.post(notes, port: port)
            #expect(created.status == 201, "\(created.text)")
            #expect(created.json["hasJSON"] as? Bool == false)
            let report = try #require(created.json["report"] as? [String: Any])
            #expect(report["valid"] as? Bool == false)
            #expect((report["violations"] as? [[String: Any]])?.isEmpty == false)
            let id = try #require(created.json["id"] as? String)

            let metadata = try await Self.get("/v1/archives/\(id)", port: port)
            #expect(metadata.body == created.body)
            let json = try await Self.get("/v1/archives/\(id)/json", port: port)
            #expect(json.status == 404)
            #expect(json.json["code"] as? String == "result.no_json")

            // Not an archive at all: a 422 problem, and nothing is stored.
            let garbage = try await Self.post(Array("not an archive".utf8), port: port)
            #expect(garbage.status == 422)
            let page = try await Self.get("/v1/archives", port: port)
            #expect((page.json["items"] as? [[String: Any]])?.count == 1)
        }
    }

    @Test func reUploadingTheSameArchiveReturnsTheExistingResult() async throws {
        let archive = try Fixtures.plainArchive()
        try await Self.withStore { port, _ in
            let first = try await Self.post(archive, port: port)
            let second = try await Self.post(archive, port: port)
            #expect(first.status == 201)
            #expect(second.status == 200)
            #expect(second.body == first.body)
            #expect(second.headers.first(name: "Location") == first.headers.first(name: "Location"))
            let typed = try await Self.post(archive, port: port, query: "?mode=typed")
            #expect(typed.status == 201)
            #expect(typed.json["id"] as? String != first.json["id"] as? String)
            // Another tenant uploading the same bytes gets its own result.
            let other = try await Self.post(archive, port: port, key: TestTenant.beta.key)
            #expect(other.status == 201)
            #expect(other.json["id"] as? String != first.json["id"] as? String)
        }
    }

    @Test func anotherTenantsResultIsIndistinguishableFromAnUnknownOne() async throws {
        let archive = try Fixtures.plainArchive()
        try await Self.withStore { port, _ in
            let created = try await Self.post(archive, port: port)
            let id = try #require(created.json["id"] as? String)
            let unknownId = ResultID.generate()
            let beta = TestTenant.beta.key

            for suffix in ["", "/json"] {
                let foreign = try await Self.get("/v1/archives/\(id)\(suffix)", port: port, key: beta)
                let unknown = try await Self.get("/v1/archives/\(unknownId)\(suffix)", port: port, key: beta)
                let malformed = try await Self.get("/v1/archives/not-an-id\(suffix)", port: port, key: beta)
                #expect(foreign.status == 404)
                #expect(foreign.json["code"] as? String == "result.not_found")
                #expect(Self.problemShape(foreign) == Self.problemShape(unknown))
                #expect(Self.problemShape(foreign) == Self.problemShape(malformed))
                #expect(foreign.headers.first(name: "ETag") == nil)
            }
            let foreignDelete = try await TestServer.send("/v1/archives/\(id)", method: .DELETE, port: port, key: beta)
            let unknownDelete = try await TestServer.send("/v1/archives/\(unknownId)", method: .DELETE, port: port, key: beta)
            #expect(foreignDelete.status == 404)
            #expect(Self.problemShape(foreignDelete) == Self.problemShape(unknownDelete))
            let betaPage = try await Self.get("/v1/archives", port: port, key: beta)
            #expect((betaPage.json["items"] as? [Any])?.isEmpty == true)

            // The owner still sees it: the foreign DELETE removed nothing.
            let mine = try await Self.get("/v1/archives/\(id)", port: port)
            #expect(mine.status == 200)
            let anonymous = try await TestServer.send("/v1/archives/\(id)", method: .GET, port: port)
            #expect(anonymous.status == 401)
        }
    }

    @Test func deleteRemovesTheResult() async throws {
        try await Self.withStore { port, _ in
            let created = try await Self.post(try Fixtures.plainArchive(), port: port)
            let id = try #require(created.json["id"] as? String)
            let deleted = try await TestServer.send("/v1/archives/\(id)", method: .DELETE, port: port, key: TestTenant.alpha.key)
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            #expect(try await Self.get("/v1/archives/\(id)", port: port).status == 404)
            #expect(try await Self.get("/v1/archives/\(id)/json", port: port).status == 404)
            let again = try await TestServer.send("/v1/archives/\(id)", method: .DELETE, port: port, key: TestTenant.alpha.key)
            #expect(again.status == 404)
            // Method not allowed on a result's path names the ones that are.
            let put = try await TestServer.send("/v1/archives/\(id)", method: .PUT, port: port, key: TestTenant.alpha.key, body: [1])
            #expect(put.status == 405)
            #expect(put.headers.first(name: "Allow") == "GET, DELETE")
        }
    }

    @Test func listingPagesNewestFirstWithACursor() async throws {
        let clock = TestClock()
        try await Self.withStore(clock: clock) { port, _ in
            var ids: [String] = []
            for index in 0..<7 {
                let created = try await Self.post(try Self.archive(index), port: port)
                #expect(created.status == 201)
                ids.append(try #require(created.json["id"] as? String))
                // Distinct createdAt milliseconds make "newest first" observable.
                clock.advance(by: 0.01)
            }
            _ = try await Self.post(try Self.archive(100), port: port, key: TestTenant.beta.key)

            var listed: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let query = "?limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await Self.get("/v1/archives\(query)", port: port)
                #expect(page.status == 200, "\(page.text)")
                let items = try #require(page.json["items"] as? [[String: Any]])
                #expect(items.count <= 3)
                #expect(items.allSatisfy { $0["report"] == nil }, "a listing carries summaries only")
                listed += items.compactMap { $0["id"] as? String }
                cursor = page.json["nextCursor"] as? String
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 3)
            #expect(listed == Array(ids.reversed()))

            let defaultPage = try await Self.get("/v1/archives", port: port)
            #expect((defaultPage.json["items"] as? [Any])?.count == 7)
            #expect(defaultPage.json["nextCursor"] is NSNull)

            for bad in ["?limit=0", "?limit=abc", "?limit=-1", "?cursor=bogus", "?cursor=\(String(repeating: "A", count: 200))"] {
                let reply = try await Self.get("/v1/archives\(bad)", port: port)
                #expect(reply.status == 400, "\(bad): \(reply.text)")
            }
            let badCursor = try await Self.get("/v1/archives?cursor=bogus", port: port)
            #expect(badCursor.json["code"] as? String == "request.invalid_cursor")
        }
    }

    @Test func expiredResultsAre404BeforeAndAfterThePurge() async throws {
        let clock = TestClock()
        try await Self.withStore(retention: .seconds(60), clock: clock, configure: { $0.store.purgeInterval = .seconds(1) }) { port, store in
            let created = try await Self.post(try Fixtures.plainArchive(), port: port)
            let id = try #require(created.json["id"] as? String)
            #expect(try await Self.get("/v1/archives/\(id)", port: port).status == 200)

            clock.advance(by: 61)
            // Invisible at once, whether or not the purge has run.
            #expect(try await Self.get("/v1/archives/\(id)", port: port).status == 404)
            #expect(try await Self.get("/v1/archives/\(id)/json", port: port).status == 404)
            let page = try await Self.get("/v1/archives", port: port)
            #expect((page.json["items"] as? [Any])?.isEmpty == true)

            // The background task removes it within a few purge intervals, and counts it.
            var purged = false
            for _ in 0..<100 where !purged {
                try await Task.sleep(for: .milliseconds(100))
                let metrics = try await TestServer.send("/metrics", method: .GET, port: port)
                purged = metrics.text.split(separator: "\n").contains { $0.hasPrefix("archivegate_results_purged_total") && !$0.hasSuffix(" 0") }
            }
            #expect(purged, "the purge task removed the expired result within 10 s")
            #expect(try await store.purgeExpired() == 0, "nothing left to purge")
        }
    }

    @Test func thirtyTwoConcurrentWritersAllGet201() async throws {
        let client = HTTPClient.parallel(32)
        defer { _ = client.shutdown() }
        try await Self.withStore { port, store in
            let archives = try (0..<96).map { try Self.archive($0) }
            let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
                for writer in 0..<32 {
                    group.addTask {
                        var statuses: [Int] = []
                        for index in stride(from: writer, to: archives.count, by: 32) {
                            let reply = try await TestServer.send("/v1/archives", port: port, key: TestTenant.alpha.key,
                                                                  body: archives[index], client: client)
                            statuses.append(reply.status)
                        }
                        return statuses
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(statuses.count == 96)
            #expect(statuses.allSatisfy { $0 == 201 }, "\(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))")
            let page = try await store.list(tenant: "alpha", limit: 100, cursor: nil)
            #expect(page.items.count == 96)
            #expect(try await store.integrityCheck() == ["ok"])
        }
    }

    @Test func storeMetricsAndReadiness() async throws {
        try await Self.withStore { port, _ in
            // The same bytes twice (Foundation's dictionary key order differs from one archiving to the next).
            let archive = try Fixtures.plainArchive()
            _ = try await Self.post(archive, port: port)
            _ = try await Self.post(archive, port: port)
            let metrics = try await TestServer.send("/metrics", method: .GET, port: port).text
            #expect(metrics.contains(#"archivegate_results_stored_total{outcome="created",tenant="alpha"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"archivegate_results_stored_total{outcome="existing",tenant="alpha"} 1"#))
            #expect(metrics.contains(#"archivegate_store_operation_duration_seconds_count{operation="put"} 2"#))
            let ready = try await TestServer.send("/readyz", method: .GET, port: port)
            #expect(ready.status == 200)
            #expect(ready.json["store"] as? String == "ok")
        }
    }

    @Test func withoutAStoreTheEndpointsAre503() async throws {
        try await TestServer.run { port in
            let post = try await Self.post(try Fixtures.plainArchive(), port: port)
            #expect(post.status == 503)
            #expect(post.json["code"] as? String == "store.disabled")
            let list = try await Self.get("/v1/archives", port: port)
            #expect(list.status == 503)
            let ready = try await TestServer.send("/readyz", method: .GET, port: port)
            #expect(ready.json["store"] as? String == "disabled")
        }
    }

    @Test func fetchWithStoreKeepsTheResultUnderItsURL() async throws {
        let archive = try Fixtures.plainArchive()
        let origin = try TestHTTPServer { _ in .response(status: 200, headers: ["Content-Type: application/octet-stream"], body: archive) }
        defer { origin.stop() }
        try await Self.withStore(configure: FetchEndpointTests.allowLoopback) { port, _ in
            let url = origin.url("/remote.archive")
            let reply = try await FetchEndpointTests.post(FetchEndpointTests.fetchBody(url, extra: #","store":true,"mode":"typed""#), port: port)
            #expect(reply.status == 201, "\(reply.text)")
            #expect(reply.json["source"] as? String == url)
            #expect(reply.json["mode"] as? String == "typed")
            let id = try #require(reply.json["id"] as? String)
            #expect(reply.headers.first(name: "Location") == "/v1/archives/\(id)")
            let converted = try await TestServer.send("/v1/convert?mode=typed", port: port, key: TestTenant.alpha.key, body: archive)
            let json = try await Self.get("/v1/archives/\(id)/json", port: port)
            #expect(json.body == converted.body)
            // A fetch that fails stores nothing.
            let missing = try await FetchEndpointTests.post(
                FetchEndpointTests.fetchBody("http://127.0.0.1:1/", extra: #","store":true"#), port: port)
            #expect(missing.status >= 400)
            let page = try await Self.get("/v1/archives", port: port)
            #expect((page.json["items"] as? [Any])?.count == 1)
        }
    }
}
