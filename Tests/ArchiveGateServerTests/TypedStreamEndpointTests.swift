import ArchiveGateCore
import ArchiveGateTestSupport
import Foundation
import Testing

/// Issue 35 over loopback HTTP: NSArchiver typedstreams (iMessage `attributedBody`, an Interface
/// Builder nib) through every door of the door table with the verdicts a keyed archive gets, the
/// inspector's call, and problem+json with the `typedstream.*` code and the byte offset for a
/// malformed one. The files are other projects' fixtures (`../shared/typedstream-corpus`).
@Suite(.enabled(if: TypedStreamSamples.isPresent, Comment(rawValue: TypedStreamSamples.absent)))
struct TypedStreamEndpointTests {
    typealias Row = VerdictDoorEndpointTests.Row

    static let message = TypedStreamSamples.messages[0]

    /// A keyed archive whose NSData holds the message's typedstream.
    static func typedstreamInData() throws -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        builder.setTop("root", builder.array(of: [builder.add(.data(try TypedStreamSamples.bytes(message.file)))]))
        return builder.binary()
    }

    /// The typed JSON of a typedstream is the stream's own (not a keyed archive's): no encode row.
    static let rows: [Row] = [
        Row(name: "typedstream message", bytes: { try TypedStreamSamples.bytes(message.file) }, tenant: .alpha, verdict: "accepted"),
        Row(name: "typedstream message, any class", bytes: { try TypedStreamSamples.bytes(message.file) }, tenant: .beta, verdict: "accepted"),
        Row(name: "typedstream nib", bytes: { try TypedStreamSamples.bytes(TypedStreamSamples.nib) }, tenant: .alpha, verdict: "rejected"),
        Row(name: "typedstream nib, redacted", bytes: { try TypedStreamSamples.bytes(TypedStreamSamples.nib) }, tenant: .redactor, verdict: "redacted"),
        Row(name: "typedstream in NSData", bytes: { try typedstreamInData() }, tenant: .beta, verdict: "inconclusive"),
    ]

    @Test(arguments: rows)
    func everyEndpointGivesTheSameVerdict(_ row: Row) async throws {
        try await VerdictDoorEndpointTests.walkEveryDoor(row)
    }

    /// `/v1/convert` and `/v1/inspect` show the message text; `?nested=true` decodes the typedstream
    /// inside NSData in place.
    @Test func theMessageTextIsInTheJSON() async throws {
        let bytes = try TypedStreamSamples.bytes(Self.message.file)
        let outer = try Self.typedstreamInData()
        try await TestServer.run { port in
            let convert = try await TestServer.send("/v1/convert", port: port, key: TestTenant.alpha.key, body: bytes)
            #expect(convert.status == 200)
            #expect(TypedStreamSamples.text(ofRuns: convert.json["root"]) == Self.message.text, "\(convert.text.prefix(300))")

            let inspect = try await TestServer.send("/v1/inspect", port: port, key: TestTenant.alpha.key, body: bytes)
            let (json, report) = try InspectorEndpointTests.split(inspect)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
            #expect(TypedStreamSamples.text(ofRuns: document["root"]) == Self.message.text)
            #expect(report["verdict"] as? String == "accepted")

            let typed = try await TestServer.send("/v1/inspect?mode=typed", port: port, key: TestTenant.alpha.key, body: bytes)
            #expect(typed.status == 200)
            #expect(typed.text.contains("NSMutableAttributedString"), "\(typed.text.prefix(300))")

            let nested = try await TestServer.send("/v1/convert?nested=true", port: port, key: TestTenant.beta.key, body: outer)
            #expect(nested.status == 200, "\(nested.text.prefix(300))")
            let inner = (nested.json["root"] as? [[String: Any]])?.first?["$archive"] as? [String: Any]
            #expect(TypedStreamSamples.text(ofRuns: inner?["root"]) == Self.message.text, "\(nested.text.prefix(300))")
        }
    }

    /// A typedstream cut short: 422 problem+json with `typedstream.truncated` and the byte offset,
    /// the same at every door that takes an archive (and for a fetched one).
    @Test func aMalformedTypedstreamIsAProblemWithItsOffsetEverywhere() async throws {
        let cut = Array(try TypedStreamSamples.bytes(Self.message.file).prefix(100))
        let origin = try TestHTTPServer { _ in .response(status: 200, body: cut) }
        defer { origin.stop() }
        try await ResultEndpointTests.withStore(configure: FetchEndpointTests.allowLoopback) { port, _ in
            var replies: [(String, TestReply)] = []
            for path in ["/v1/validate", "/v1/convert", "/v1/convert?mode=typed", "/v1/sanitize", "/v1/archives", "/v1/inspect"] {
                replies.append((path, try await TestServer.send(path, port: port, key: TestTenant.alpha.key, body: cut)))
            }
            replies.append(("/v1/fetch", try await FetchEndpointTests.post(FetchEndpointTests.fetchBody(origin.url("/cut.typedstream")), port: port)))
            for (path, reply) in replies {
                #expect(reply.status == 422, "\(path): \(reply.text.prefix(300))")
                #expect(reply.headers.first(name: "Content-Type") == "application/problem+json", "\(path)")
                #expect(reply.json["code"] as? String == "typedstream.truncated", "\(path): \(reply.text.prefix(300))")
                #expect(reply.json["type"] as? String == "https://archivegate.dev/problems/typedstream.truncated")
                #expect(reply.json["title"] as? String == "Not a Valid Archive")
                let detail = reply.json["detail"] as? String ?? ""
                let offset = detail.range(of: "(at byte ").flatMap { Int(detail[$0.upperBound...].prefix { $0.isNumber }) }
                #expect(offset.map { (16 ... 100).contains($0) } == true, "\(path): \(detail)")
            }
        }
    }
}
