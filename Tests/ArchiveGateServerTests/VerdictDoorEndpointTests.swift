import ArchiveGateCore
import ArchiveGateFetch
import ArchiveGateServer
import ArchiveGateTestSupport
import Foundation
import Testing

/// The door table over real loopback HTTP: the same archives through every endpoint — validate,
/// convert, sanitize, encode (of the archive's typed JSON), the stored result (`POST /v1/archives`
/// and `GET /v1/archives/{id}`) and fetch (from a loopback origin) — show the same verdict (in the
/// report's `"verdict"`, or a content door's `X-ArchiveGate-Verdict`) with the status
/// `VerdictStatus` documents; inputs the core cannot evaluate get their problem code everywhere.
@Suite struct VerdictDoorEndpointTests {
    struct Row: CustomStringConvertible, Sendable {
        var name: String
        var bytes: @Sendable () throws -> [UInt8]
        var tenant: TestTenant
        var verdict: String
        /// encode's verdict on the re-encoded archive (encode never redacts; nil: not a row for encode).
        var encodeVerdict: String?
        var description: String { name }
    }

    static func noteArchive() -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        builder.setTop("root", builder.object(class: builder.classRecord("Note"), fields: ["title": .uid(builder.add("t"))]))
        return builder.binary()
    }

    /// An NSSortDescriptor smuggled under another name: a `danger.sort_descriptor` finding.
    static func dangerArchive() -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let sort = builder.object(class: builder.classRecord("Innocent", chain: ["Innocent", "NSSortDescriptor", "NSObject"]),
                                  fields: ["NSKey": .uid(builder.add("name"))])
        builder.setTop("root", sort)
        return builder.binary()
    }

    static func listArchive() -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        builder.setTop("root", builder.array(of: [builder.add("a"), builder.add("b")]))
        return builder.binary()
    }

    static func nestedArchive() -> [UInt8] {
        var outer = KeyedArchiveBuilder()
        outer.setTop("root", outer.array(of: [outer.add(.data(listArchive()))]))
        return outer.binary()
    }

    /// The list archive with bytes between its last object and its offset table.
    static func trailingBytesArchive() -> [UInt8] {
        let bytes = listArchive()
        let base = bytes.count - 32
        func number(_ at: Int, _ size: Int) -> Int { bytes[at ..< at + size].reduce(0) { $0 << 8 | Int($1) } }
        let tableStart = number(base + 24, 8), junk = Array("hidden".utf8)
        var trailer = Array(bytes[base...])
        let moved = tableStart + junk.count
        for byte in 0 ..< 8 { trailer[24 + byte] = UInt8(truncatingIfNeeded: moved >> ((7 - byte) * 8)) }
        return Array(bytes[..<tableStart]) + junk + Array(bytes[tableStart ..< base]) + trailer
    }

    static let rows: [Row] = [
        Row(name: "valid", bytes: { listArchive() }, tenant: .alpha, verdict: "accepted", encodeVerdict: "accepted"),
        Row(name: "custom class", bytes: { noteArchive() }, tenant: .alpha, verdict: "rejected", encodeVerdict: "rejected"),
        Row(name: "redacted", bytes: { noteArchive() }, tenant: .redactor, verdict: "redacted", encodeVerdict: "rejected"),
        Row(name: "danger under the gate", bytes: { dangerArchive() }, tenant: .alpha, verdict: "rejected", encodeVerdict: "rejected"),
        Row(name: "danger finding", bytes: { dangerArchive() }, tenant: .beta, verdict: "acceptedWithFindings",
            encodeVerdict: "acceptedWithFindings"),
        Row(name: "nested archive", bytes: { nestedArchive() }, tenant: .beta, verdict: "inconclusive", encodeVerdict: "inconclusive"),
        Row(name: "trailing bytes", bytes: { trailingBytesArchive() }, tenant: .alpha, verdict: "inconclusive", encodeVerdict: nil),
    ]

    /// Content doors answer 200 only with content the verdict released.
    static let convertReleases: Set = ["accepted", "acceptedWithFindings", "redacted", "inconclusive"]
    static let sanitizeReleases: Set = ["accepted", "redacted"]
    static let encodeReleases: Set = ["accepted", "acceptedWithFindings"]

    static func reportVerdict(_ reply: TestReply) -> String? {
        (reply.json["report"] as? [String: Any])?["verdict"] as? String ?? reply.json["verdict"] as? String
    }

    @Test(arguments: rows)
    func everyEndpointGivesTheSameVerdict(_ row: Row) async throws {
        try await Self.walkEveryDoor(row)
    }

    /// Sends `row`'s archive through every door and checks each verdict and status.
    static func walkEveryDoor(_ row: Row) async throws {
        let bytes = try row.bytes()
        let origin = try TestHTTPServer { _ in .response(status: 200, body: bytes) }
        defer { origin.stop() }
        let key = row.tenant.key
        try await ResultEndpointTests.withStore(configure: FetchEndpointTests.allowLoopback) { port, _ in
            let validate = try await TestServer.send("/v1/validate", port: port, key: key, body: bytes)
            #expect(validate.status == 200)
            #expect(validate.json["verdict"] as? String == row.verdict, "validate: \(validate.text.prefix(300))")
            if row.name == "trailing bytes" {
                #expect(validate.json["verdictReason"] as? String == "plist.unaccounted_bytes")
                // The first hidden byte: where the offset table started before "hidden" was inserted.
                #expect(validate.json["verdictOffset"] as? Int == Self.tableStart(bytes) - Array("hidden".utf8).count)
            }

            let convert = try await TestServer.send("/v1/convert", port: port, key: key, body: bytes)
            #expect(convert.status == (Self.convertReleases.contains(row.verdict) ? 200 : 422), "convert: \(convert.text.prefix(300))")
            #expect(convert.headers.first(name: "X-ArchiveGate-Verdict") == row.verdict)
            if convert.status == 422 {
                // The problem's violations are the report's (one writer): same codes and pointers.
                let reported = (validate.json["violations"] as? [[String: Any]] ?? []).map { "\($0["code"] ?? "") \($0["path"] ?? "")" }
                let problem = (convert.json["violations"] as? [[String: Any]] ?? []).map { "\($0["code"] ?? "") \($0["path"] ?? "")" }
                #expect(problem == reported)
                #expect(convert.json["violationsTruncated"] as? Bool == false)
            }

            let sanitize = try await TestServer.send("/v1/sanitize", port: port, key: key, body: bytes)
            #expect(sanitize.status == (Self.sanitizeReleases.contains(row.verdict) ? 200 : 422), "sanitize: \(sanitize.text.prefix(300))")
            #expect(sanitize.headers.first(name: "X-ArchiveGate-Verdict") == row.verdict)
            if sanitize.status == 422 { #expect(sanitize.json["code"] as? String == "policy.rejected") }

            let stored = try await ResultEndpointTests.post(bytes, port: port, key: key)
            #expect(stored.status == 201, "archives: \(stored.text.prefix(300))")
            #expect(Self.reportVerdict(stored) == row.verdict, "archives: \(stored.text.prefix(300))")
            let id = try #require(stored.json["id"] as? String)
            let read = try await ResultEndpointTests.get("/v1/archives/\(id)", port: port, key: key)
            #expect(read.status == 200)
            #expect(Self.reportVerdict(read) == row.verdict, "stored: \(read.text.prefix(300))")

            let fetched = try await FetchEndpointTests.post(FetchEndpointTests.fetchBody(origin.url("/input.archive")), port: port, key: key)
            #expect(fetched.status == 200, "fetch: \(fetched.text.prefix(300))")
            #expect(Self.reportVerdict(fetched) == row.verdict, "fetch: \(fetched.text.prefix(300))")

            guard let encodeVerdict = row.encodeVerdict else { return }
            let typed = try await TestServer.send("/v1/convert?mode=typed", port: port, key: TestTenant.beta.key, body: bytes)
            #expect(typed.status == 200)
            let encode = try await TestServer.send("/v1/encode", port: port, key: key, body: typed.body, contentType: "application/json")
            #expect(encode.status == (Self.encodeReleases.contains(encodeVerdict) ? 200 : 422), "encode: \(encode.text.prefix(300))")
            #expect(encode.headers.first(name: "X-ArchiveGate-Verdict") == encodeVerdict)
        }
    }

    static func tableStart(_ bytes: [UInt8]) -> Int { bytes[(bytes.count - 8)...].reduce(0) { $0 << 8 | Int($1) } }

    /// Inputs the core cannot evaluate: the same problem code at every door.
    @Test(arguments: [
        ("truncated", Array("bplist00garbage".utf8), 422, "plist.truncated"),
        ("not a plist", Array("hello, world".utf8), 422, "plist.not_a_property_list"),
    ] as [(String, [UInt8], Int, String)])
    func unevaluatedInputsGetTheirCodeEverywhere(_ name: String, _ bytes: [UInt8], _ status: Int, _ code: String) async throws {
        try await ResultEndpointTests.withStore { port, _ in
            for path in ["/v1/validate", "/v1/convert", "/v1/sanitize", "/v1/archives"] {
                let reply = try await TestServer.send(path, port: port, key: TestTenant.alpha.key, body: bytes)
                #expect(reply.status == status, "\(name) \(path): \(reply.text.prefix(200))")
                #expect(reply.json["code"] as? String == code, "\(name) \(path): \(reply.text.prefix(200))")
            }
        }
    }
}
