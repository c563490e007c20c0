import Foundation
import Testing

/// `archivegate hash-key`: the SHA-256 hex that tenant files store.
@Suite struct HashKeyCommandTests {
    /// SHA-256 of "demo-key-change-me", as the demo tenant (`examples/demo-tenant/demo.json`) stores it.
    static let demoHash = "090d1548c9d65f413a1a2c828a0bee3a7ae02d2137caf51e6029e6c3cb1f1fa4"

    @Test func hashesAKeyGivenAsAnArgument() throws {
        let result = try CLIRunner.run(["hash-key", "demo-key-change-me"])
        #expect(result.status == 0)
        #expect(result.stdout == Self.demoHash + "\n")
    }

    @Test func readsTheKeyFromStandardInputWithoutItsNewline() throws {
        let result = try CLIRunner.run(["hash-key"], stdin: Data("demo-key-change-me\n".utf8))
        #expect(result.status == 0)
        #expect(result.stdout == Self.demoHash + "\n")
    }

    @Test func anEmptyKeyIsAUsageError() throws {
        let result = try CLIRunner.run(["hash-key"], stdin: Data("\n".utf8))
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no key given"), "\(result.stderr)")
    }

    /// The printed hash is what a tenant file accepts: the shipped demo tenant stores exactly it.
    @Test func theHashIsWhatTheDemoTenantFileStores() throws {
        let tenant = CLIRunner.packageRoot.appendingPathComponent("examples/demo-tenant/demo.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: tenant)) as? [String: Any])
        let printed = try CLIRunner.run(["hash-key", "demo-key-change-me"]).stdout.trimmingCharacters(in: .newlines)
        #expect((document["keys"] as? [String])?.contains(printed) == true)
    }

    /// End to end: a tenant file holding the printed hash lets the key in, and only that key.
    @Test func aServerAcceptsTheKeyWhoseHashItsTenantFileHolds() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = "k-\(UUID().uuidString)"
        let hash = try CLIRunner.run(["hash-key", key]).stdout.trimmingCharacters(in: .newlines)
        let tenants = directory.appendingPathComponent("tenants")
        try FileManager.default.createDirectory(at: tenants, withIntermediateDirectories: true)
        let tenant = #"{"id": "hashed", "keys": ["\#(hash)"], "policy": {"allow": ["foundation"]}}"#
        try Data(tenant.utf8).write(to: tenants.appendingPathComponent("hashed.json"))

        let server = try CLIRunner.serve(configDirectory: directory)
        defer { server.stop() }
        let archive = try CLITests.archive("hello" as NSString)
        #expect(try server.postStatus("/v1/validate", key: key, body: archive) == 200)
        #expect(try server.postStatus("/v1/validate", key: key + "x", body: archive) == 401)
    }
}
