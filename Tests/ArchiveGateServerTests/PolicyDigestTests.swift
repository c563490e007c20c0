import ArchiveGateKeys
import ArchiveGateServer
import ArchiveGateStore
import Foundation
import Synchronization
import Testing

/// Issue 15, stale verdicts: the idempotency key of a stored result includes the tenant's policy,
/// so re-uploading the same bytes after the policy changed judges them again.
@Suite struct PolicyDigestTests {
    static let key = "policy-digest-key"

    /// One tenant file with `policy` inline (keys deliberately unsorted).
    static func writeTenant(_ directory: String, policy: String) throws {
        try #"{"keys":["\#(APIKeyHash(key: key).hex)"],"policy":\#(policy),"id":"digest","rateLimit":{"requestsPerSecond":100000,"burst":100000}}"#
            .write(toFile: directory + "/digest.json", atomically: true, encoding: .utf8)
    }

    /// Posts `archive` to `/v1/archives` on a fresh server over `store` and the tenants in `directory`.
    static func upload(_ archive: [UInt8], store: SQLiteResultStore, tenants directory: String) async throws -> TestReply {
        let reply = ReplyBox()
        try await TestServer.run(configure: { $0.tenantsDirectory = directory }, store: store) { port in
            let answer = try await TestServer.send("/v1/archives", port: port, key: key, body: archive)
            reply.value.withLock { $0 = answer }
        }
        return try #require(reply.value.withLock { $0 })
    }

    final class ReplyBox: Sendable {
        let value = Mutex<TestReply?>(nil)
    }

    static func isValid(_ reply: TestReply) -> Bool? { (reply.json["report"] as? [String: Any])?["valid"] as? Bool }

    @Test func reuploadAfterAPolicyChangeIsJudgedAgain() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("archivegate-digest-\(UUID().uuidString)")
        let tenants = folder.appendingPathComponent("tenants").path
        try FileManager.default.createDirectory(atPath: tenants, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await SQLiteResultStore.open(configuration: .init(path: folder.appendingPathComponent("r.sqlite").path))
        // The store must be closed on every path (an open SQLite connection traps when freed).
        do {
            let archive = try Fixtures.noteArchive()  // a custom class: valid under "*", not under "foundation"

            try Self.writeTenant(tenants, policy: #"{"onViolation":"reject","allow":["*"],"inspection":true}"#)
            let accepted = try await Self.upload(archive, store: store, tenants: tenants)
            #expect(accepted.status == 201)
            #expect(Self.isValid(accepted) == true)
            // The same policy, loaded again by a restarted server: still the same result.
            let again = try await Self.upload(archive, store: store, tenants: tenants)
            #expect(again.status == 200)
            #expect(again.json["id"] as? String == accepted.json["id"] as? String)

            try Self.writeTenant(tenants, policy: #"{"onViolation":"reject","allow":["foundation"]}"#)
            let rejected = try await Self.upload(archive, store: store, tenants: tenants)
            #expect(rejected.status == 201, "judged again under the new policy")
            #expect(Self.isValid(rejected) == false)
            #expect(rejected.json["id"] as? String != accepted.json["id"] as? String)
            let rejectedAgain = try await Self.upload(archive, store: store, tenants: tenants)
            #expect(rejectedAgain.status == 200)
            #expect(rejectedAgain.json["id"] as? String == rejected.json["id"] as? String)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
