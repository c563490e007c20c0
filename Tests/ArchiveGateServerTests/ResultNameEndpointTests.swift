import ArchiveGateTestSupport
import Foundation
import Testing

/// `POST /v1/archives?name=`: the upload's file name is kept and shown by every result document
/// and listing (issue 34: stored results named "upload" only); a bad name is a 400 before the
/// body is read.
@Suite struct ResultNameEndpointTests {
    typealias Endpoint = ResultEndpointTests

    @Test func theNameComesBackInTheResultTheMetadataAndTheListing() async throws {
        try await Endpoint.withStore { port, _ in
            // Percent-encoded UTF-8 with a space and a slash: the server keeps the decoded text.
            let created = try await Endpoint.post(try Endpoint.archive(1), port: port, query: "?name=M%C3%A4rz%20notes%2F1.archive")
            #expect(created.status == 201)
            #expect(created.json["name"] as? String == "März notes/1.archive")
            #expect(created.json["source"] as? String == "upload")
            let id = try #require(created.json["id"] as? String)
            let shown = try await Endpoint.get("/v1/archives/\(id)", port: port)
            #expect(shown.json["name"] as? String == "März notes/1.archive")
            let unnamed = try await Endpoint.post(try Endpoint.archive(2), port: port)
            #expect(unnamed.status == 201)
            #expect(unnamed.json["name"] == nil, "no name given: the member is absent")
            let listing = try await Endpoint.get("/v1/archives", port: port)
            let items = try #require(listing.json["items"] as? [[String: Any]])
            #expect(items.map { $0["name"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == [nil, "März notes/1.archive"])
        }
    }

    @Test func aNameWithAControlCharacterOrOver255BytesIs400() async throws {
        try await Endpoint.withStore { port, _ in
            for query in ["?name=", "?name=a%0Ab", "?name=" + String(repeating: "a", count: 256)] {
                let reply = try await Endpoint.post(try Endpoint.archive(1), port: port, query: query)
                #expect(reply.status == 400, "\(query)")
                #expect(reply.json["code"] as? String == "request.invalid", "\(query)")
            }
            let longest = String(repeating: "a", count: 255)
            let kept = try await Endpoint.post(try Endpoint.archive(1), port: port, query: "?name=" + longest)
            #expect(kept.status == 201)
            #expect(kept.json["name"] as? String == longest)
        }
    }
}
