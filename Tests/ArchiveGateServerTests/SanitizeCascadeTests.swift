import ArchiveGateKeys
@testable import ArchiveGateServer
import Foundation
import Testing

/// A link in a chain whose every `next` the cascade policy requires (Foundation on Linux archives
/// it as `ArchiveGateServerTests.CascadeLink`).
final class CascadeLink: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let next: NSObject?

    init(next: NSObject?) {
        self.next = next
    }

    func encode(with coder: NSCoder) {
        coder.encode(next, forKey: "next")
    }

    required init?(coder: NSCoder) {
        next = coder.decodeObject(forKey: "next") as? NSObject
    }
}

/// Issue 31: a ~50 KB upload built to cascade under `redact` costs a bounded number of full
/// decodes over real HTTP — the upload, `DecodePipeline.maximumSanitizeCascade` rounds and the
/// check of the last round's output — and a longer cascade is the documented
/// `422 archive.depth_limit_exceeded` (docs/MEMORY.md), counted in
/// `archivegate_sanitize_decodes_total`. Before the bound the same upload took 65 decodes.
@Suite struct SanitizeCascadeTests {
    static let tenantKey = "cascade-test-key"

    /// Redact; a `CascadeLink`'s `next` must be a link and is required. A Note at the end of the
    /// chain is redacted, which leaves its holder without `next`, whose redaction leaves its own
    /// holder without one, and so on up the chain: one round per link.
    static func tenantFile() -> String {
        let link = "ArchiveGateServerTests.CascadeLink"
        return #"{"id":"cascade","keys":["\#(APIKeyHash(key: tenantKey).hex)"],"#
            + #""policy":{"allow":["foundation","\#(link)"],"onViolation":"redact","#
            + #""classes":{"\#(link)":{"keys":{"next":"\#(link)"},"required":["next"]}}},"#
            + #""rateLimit":{"requestsPerSecond":100000,"burst":100000}}"#
    }

    /// `[50 KB string, link₁ → … → link_links → Note]`.
    static func cascadeArchive(links: Int) throws -> [UInt8] {
        var chain: NSObject = Note(title: "redacted first")
        for _ in 0 ..< links { chain = CascadeLink(next: chain) }
        let root: NSArray = [String(repeating: "p", count: 50_000) as NSString, chain]
        return Array(try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false))
    }

    static func decodes(port: Int) async throws -> Int {
        let metrics = try await TestServer.send("/metrics", method: .GET, port: port).text
        let prefix = #"archivegate_sanitize_decodes_total{tenant="cascade"} "#
        return metrics.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }

    static func run(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("archivegate-cascade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try tenantFile().write(to: folder.appendingPathComponent("cascade.json"), atomically: true, encoding: .utf8)
        try await TestServer.run(configure: { $0.tenantsDirectory = folder.path }, body)
    }

    @Test func aCascadeWithinTheBoundIsRedactedInBoundedDecodes() async throws {
        let cascade = DecodePipeline.maximumSanitizeCascade
        let upload = try Self.cascadeArchive(links: cascade)
        #expect(upload.count > 50_000)
        try await Self.run { port in
            let reply = try await TestServer.send("/v1/sanitize?envelope=json", port: port, key: Self.tenantKey, body: upload)
            #expect(reply.status == 200, "\(reply.text.prefix(300))")
            // The Note, then each link, one round each.
            let codes = (reply.json["violations"] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
            #expect(codes.count == cascade + 1, "\(codes)")
            #expect(codes.dropFirst().allSatisfy { $0 == "policy.missing_required_key" }, "\(codes)")
            #expect(reply.headers.first(name: "X-ArchiveGate-Violations") == String(cascade + 1))
            // The upload, `cascade` rounds, and the check that the last output is clean.
            #expect(try await Self.decodes(port: port) == cascade + 2)
        }
    }

    @Test func aLongerCascadeIsRefusedAfterTheSameNumberOfDecodes() async throws {
        let cascade = DecodePipeline.maximumSanitizeCascade
        let upload = try Self.cascadeArchive(links: 60)
        #expect(upload.count > 50_000 && upload.count < 60_000)
        try await Self.run { port in
            let reply = try await TestServer.send("/v1/sanitize", port: port, key: Self.tenantKey, body: upload)
            #expect(reply.status == 422, "\(reply.text.prefix(300))")
            #expect(reply.json["code"] as? String == "archive.depth_limit_exceeded")
            #expect(try await Self.decodes(port: port) == cascade + 2)
            // The bound is per request, not per server: a second upload costs as many again.
            _ = try await TestServer.send("/v1/sanitize", port: port, key: Self.tenantKey, body: upload)
            #expect(try await Self.decodes(port: port) == 2 * (cascade + 2))
        }
    }
}
