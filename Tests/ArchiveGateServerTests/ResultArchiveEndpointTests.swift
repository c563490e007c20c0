import ArchiveGateCore
import ArchiveGateServer
import ArchiveGateStore
import Foundation
import Testing

/// `POST /v1/archives?sanitize=true` and `GET /v1/archives/{id}/archive` over real HTTP with a real
/// SQLite file (the store's side, both stores, is `ResultStoreConformance.sanitizedArchive…`).
@Suite struct ResultArchiveEndpointTests {
    typealias Endpoint = ResultEndpointTests

    @Test func theStoredArchiveIsWhatSanitizeAnswersAndFoundationDecodesIt() async throws {
        @Sendable func root() -> NSDictionary { ["name": "kept" as NSString, "items": [1, 2, 3] as NSArray] }
        let archive = Array(try NSKeyedArchiver.archivedData(withRootObject: root(), requiringSecureCoding: true))
        try await Endpoint.withStore { port, _ in
            let created = try await Endpoint.post(archive, port: port, query: "?sanitize=true")
            #expect(created.status == 201, "\(created.text)")
            #expect(created.json["hasArchive"] as? Bool == true)
            let id = try #require(created.json["id"] as? String)

            let stored = try await Endpoint.get("/v1/archives/\(id)/archive", port: port)
            #expect(stored.status == 200)
            #expect(stored.headers.first(name: "Content-Type") == "application/octet-stream")
            #expect(stored.headers.first(name: "ETag") == "\"\(id).archive\"")
            let sanitized = try await TestServer.send("/v1/sanitize", port: port, key: TestTenant.alpha.key, body: archive)
            #expect(sanitized.status == 200)
            #expect(stored.body == sanitized.body)
            let decoded = try NSKeyedUnarchiver.unarchivedObject(
                ofClasses: [NSDictionary.self, NSArray.self, NSString.self, NSNumber.self], from: Data(stored.body)) as? NSDictionary
            #expect(decoded == root())

            for condition in ["\"\(id).archive\"", "*", "W/\"\(id).archive\""] {
                let unchanged = try await Endpoint.get("/v1/archives/\(id)/archive", port: port, headers: [("If-None-Match", condition)])
                #expect(unchanged.status == 304, "If-None-Match: \(condition)")
                #expect(unchanged.body.isEmpty)
            }
            // The JSON's tag names another representation.
            let json = try await Endpoint.get("/v1/archives/\(id)/archive", port: port, headers: [("If-None-Match", "\"\(id)\"")])
            #expect(json.status == 200)
            let listed = try await Endpoint.get("/v1/archives", port: port)
            #expect((listed.json["items"] as? [[String: Any]])?.first?["hasArchive"] as? Bool == true)
        }
    }

    @Test func aRedactPolicysStoredArchiveHoldsNoDisallowedClass() async throws {
        let archive = try Array(Data(contentsOf: WriteEndpointTests.payload))
        try await Endpoint.withStore { port, _ in
            let created = try await Endpoint.post(archive, port: port, key: TestTenant.redactor.key, query: "?sanitize=true")
            #expect(created.status == 201, "\(created.text)")
            #expect(created.json["hasArchive"] as? Bool == true)
            let id = try #require(created.json["id"] as? String)
            let stored = try await Endpoint.get("/v1/archives/\(id)/archive", port: port, key: TestTenant.redactor.key)
            #expect(stored.status == 200)
            let converted = try await TestServer.send("/v1/convert", port: port, key: TestTenant.alpha.key, body: stored.body)
            #expect(converted.status == 200)
            #expect(converted.text == #"{"root":null}"#)
        }
    }

    @Test func noArchiveIsATypedNotFound() async throws {
        let accepted = try Endpoint.archive(1)
        let rejected = try Array(Data(contentsOf: WriteEndpointTests.payload))
        try await Endpoint.withStore { port, _ in
            let plain = try await Endpoint.post(accepted, port: port)
            #expect(plain.json["hasArchive"] as? Bool == false)
            let refused = try await Endpoint.post(rejected, port: port, query: "?sanitize=true")
            #expect(refused.status == 201)
            #expect(refused.json["hasJSON"] as? Bool == false)
            #expect(refused.json["hasArchive"] as? Bool == false)
            for created in [plain, refused] {
                let id = try #require(created.json["id"] as? String)
                let reply = try await Endpoint.get("/v1/archives/\(id)/archive", port: port)
                #expect(reply.status == 404)
                #expect(reply.headers.first(name: "Content-Type") == "application/problem+json")
                #expect(reply.json["code"] as? String == "result.no_archive")
            }
            let unknown = try await Endpoint.get("/v1/archives/AAAAAAAAAAAAAAAAAAAAAA/archive", port: port)
            #expect(unknown.status == 404)
            #expect(unknown.json["code"] as? String == "result.not_found")
            let id = try #require(plain.json["id"] as? String)
            let foreign = try await Endpoint.get("/v1/archives/\(id)/archive", port: port, key: TestTenant.beta.key)
            #expect(Endpoint.problemShape(foreign) == Endpoint.problemShape(unknown))
            let bad = try await Endpoint.post(accepted, port: port, query: "?sanitize=yes")
            #expect(bad.status == 400)
            #expect(bad.json["code"] as? String == "request.invalid")
        }
    }

    @Test func askingForTheArchiveIsPartOfTheReuploadKey() async throws {
        let archive = try Endpoint.archive(2)
        try await Endpoint.withStore { port, _ in
            let without = try await Endpoint.post(archive, port: port)
            let with = try await Endpoint.post(archive, port: port, query: "?sanitize=true")
            let again = try await Endpoint.post(archive, port: port, query: "?sanitize=true")
            #expect(without.status == 201)
            #expect(with.status == 201, "an earlier result without an archive must not answer a request for one")
            #expect(with.json["hasArchive"] as? Bool == true)
            #expect(again.status == 200)
            #expect(again.json["id"] as? String == with.json["id"] as? String)
            #expect(without.json["id"] as? String != with.json["id"] as? String)
        }
    }

    @Test func theStoredArchiveCountsInTheQuota() async throws {
        let archive = try Endpoint.archive(3)
        try await Endpoint.withStore { port, _ in
            let plain = try await Endpoint.post(archive, port: port, query: "?mode=typed")
            let id = try #require(plain.json["id"] as? String)
            let report = try await Endpoint.get("/v1/archives/\(id)", port: port)
            #expect(report.status == 200)
            let json = try await Endpoint.get("/v1/archives/\(id)/json", port: port)
            let sanitized = try await TestServer.send("/v1/sanitize", port: port, key: TestTenant.alpha.key, body: archive)
            let reportBytes = try #require(Self.storedReportBytes(report))
            // Room for the plain result and exactly one more JSON + report, but not the archive too.
            let withoutArchive = reportBytes + json.body.count
            #expect(sanitized.body.count > 0)
            try await Self.withQuota(bytes: withoutArchive * 2 + sanitized.body.count - 1) { port in
                let first = try await Endpoint.post(archive, port: port, query: "?mode=typed")
                #expect(first.status == 201)
                let refused = try await Endpoint.post(archive, port: port, query: "?mode=typed&sanitize=true")
                #expect(refused.status == 413, "\(refused.text)")
                #expect(refused.json["code"] as? String == "store.quota_exceeded")
            }
            try await Self.withQuota(bytes: withoutArchive * 2 + sanitized.body.count) { port in
                let plain = try await Endpoint.post(archive, port: port, query: "?mode=typed")
                let withArchive = try await Endpoint.post(archive, port: port, query: "?mode=typed&sanitize=true")
                #expect(plain.status == 201)
                #expect(withArchive.status == 201, "\(withArchive.text)")
            }
        }
    }

    /// A custom object whose field is a plist set: NSKeyedArchiver never writes one and corelibs'
    /// unarchiver segfaults on one, so every route refuses it (422) and nothing is stored.
    @Test func anArchiveHoldingAPlistSetIs422AndNothingIsStored() async throws {
        let json = #"{"$archiver":"NSKeyedArchiver","$version":100000,"$top":{"root":{"$uid":1}},"# +
            #""$objects":["$null",{"$class":{"$uid":2},"tags":{"$set":[1,2]}},{"$classname":"Note","$classes":["Note","NSObject"]}]}"#
        var builder = KeyedArchiveBuilder()
        builder.setTop("root", builder.object(class: builder.classRecord("Note"), fields: ["tags": .set([1, 2])]))
        let archive = builder.binary()
        try await Endpoint.withStore { port, store in
            let encoded = try await TestServer.send("/v1/encode", port: port, key: TestTenant.beta.key, body: Array(json.utf8),
                                                    contentType: "application/json")
            #expect(encoded.status == 422, "\(encoded.text)")
            let sanitized = try await TestServer.send("/v1/sanitize", port: port, key: TestTenant.beta.key, body: archive)
            #expect(sanitized.status == 422)
            #expect(sanitized.json["code"] as? String == "archive.invalid_field_value")
            for query in ["?sanitize=true", ""] {
                let refused = try await Endpoint.post(archive, port: port, key: TestTenant.beta.key, query: query)
                #expect(refused.status == 422, "\(query)")
                #expect(refused.json["code"] as? String == "archive.invalid_field_value")
            }
            let page = try await store.list(tenant: "beta", limit: 10, cursor: nil)
            #expect(page.items.isEmpty)
        }
    }

    /// The report exactly as the store keeps it: the sorted-key JSON embedded in the result document.
    private static func storedReportBytes(_ reply: TestReply) -> Int? {
        guard let range = reply.text.range(of: #","report":"#) else { return nil }
        return reply.text[range.upperBound...].utf8.count - 1
    }

    private static func withQuota(bytes: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        try await Endpoint.withStore(configure: { $0.tenantDefaults.maxStoredBytes = bytes }) { port, _ in try await body(port) }
    }
}
