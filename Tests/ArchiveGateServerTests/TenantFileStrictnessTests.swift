import ArchiveGateKeys
@testable import ArchiveGateServer
import Foundation
import Testing

/// Tenant files: typed values (a boolean is not a size), `*` hosts only with an acknowledgement,
/// and the published demo key never on a reachable address.
@Suite struct TenantFileStrictnessTests {
    private let hash = APIKeyHash(key: "strict-test-key").hex

    private func load(_ contents: String) throws -> TenantRegistry {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ag-tenants-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try contents.write(toFile: directory + "/t.json", atomically: true, encoding: .utf8)
        return try TenantRegistry.load(directory: directory, defaults: TenantDefaults())
    }

    private func message(_ fields: String) -> String? {
        do {
            _ = try load(#"{"id":"t","keys":["\#(hash)"],"policy":{"allow":["plist"]}\#(fields)}"#)
            return nil
        } catch let error as TenantFileError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test(arguments: [
        #","maxBodyBytes":true"#, #","maxBodyBytes":0"#, #","maxBodyBytes":1.5"#, #","maxArchiveBytes":"lots""#,
        #","rateLimit":{"burst":true}"#, #","rateLimit":{"requestsPerSecond":"9"}"#, #","acknowledgeAnyFetchHost":"yes""#,
    ])
    func wrongTypesStopTheStart(_ fields: String) {
        #expect(message(fields) != nil, "\(fields)")
    }

    @Test func sizesTakeSuffixes() throws {
        let registry = try load(#"{"id":"t","keys":["\#(hash)"],"policy":{"allow":["plist"]},"maxBodyBytes":"1k","maxArchiveBytes":2048}"#)
        #expect(registry.tenants.first?.maxBodyBytes == 1024)
        #expect(registry.tenants.first?.maxArchiveBytes == 2048)
    }

    @Test func anyHostNeedsItsAcknowledgement() throws {
        let refused = message(#","fetchAllowedHosts":["*"]"#)
        #expect(refused?.contains("acknowledgeAnyFetchHost") == true)

        let registry = try load(#"{"id":"t","keys":["\#(hash)"],"policy":{"allow":["plist"]},"fetchAllowedHosts":["*"],"acknowledgeAnyFetchHost":true}"#)
        let tenant = try #require(registry.tenants.first)
        #expect(tenant.fetchAllowedHosts == nil, "any host the address rules allow")
        #expect(tenant.acknowledgedRisks.count == 1)

        let listed = try load(#"{"id":"t","keys":["\#(hash)"],"policy":{"allow":["plist"]},"fetchAllowedHosts":["a.example"]}"#)
        #expect(listed.tenants.first?.fetchAllowedHosts == ["a.example"])
        #expect(listed.tenants.first?.acknowledgedRisks.isEmpty == true)
    }

    private func error(_ contents: String) -> TenantFileError? {
        do {
            _ = try load(contents)
            return nil
        } catch let error as TenantFileError {
            return error
        } catch {
            Issue.record("expected a TenantFileError, got \(error)")
            return nil
        }
    }

    /// Issue 31: `*.com` and `*.*` needed no acknowledgement.
    @Test(arguments: ["*.com", "*.COM.", "*"])
    func overBroadHostPatternsNeedTheAcknowledgement(_ pattern: String) throws {
        let refused = error(#"{"id":"t","keys":["\#(hash)"],"policy":{"allow":["plist"]},"fetchAllowedHosts":["a.example","\#(pattern)"]}"#)
        #expect(refused?.code == .unacknowledgedRisk, "\(pattern)")
        #expect(refused?.message.contains(pattern) == true)
        #expect(refused?.message.contains("acknowledgeAnyFetchHost") == true)
        let registry = try load(#"{"id":"t","keys":["\#(hash)"],"policy":{"allow":["plist"]},"fetchAllowedHosts":["a.example","\#(pattern)"],"acknowledgeAnyFetchHost":true}"#)
        #expect(registry.tenants.first?.acknowledgedRisks.count == 1)
    }

    @Test(arguments: ["*.*", "*.*.example.com", "a*.example.com", "*example.com"])
    func aWildcardThatIsNotALeadingLabelIsRefused(_ pattern: String) {
        let refused = error(#"{"id":"t","keys":["\#(hash)"],"policy":{"allow":["plist"]},"fetchAllowedHosts":["\#(pattern)"],"acknowledgeAnyFetchHost":true}"#)
        #expect(refused?.code == .invalidValue, "\(pattern)")
        #expect(refused?.message.contains(pattern) == true)
    }

    @Test func subdomainsOfANameNeedNoAcknowledgement() throws {
        let registry = try load(#"{"id":"t","keys":["\#(hash)"],"policy":{"allow":["plist"]},"fetchAllowedHosts":["*.example.com","a.example"]}"#)
        #expect(registry.tenants.first?.fetchAllowedHosts == ["*.example.com", "a.example"])
        #expect(registry.tenants.first?.acknowledgedRisks.isEmpty == true)
    }

    /// Issue 31: a second `"policy"` turned a gate tenant into an inspection tenant unseen (the
    /// typed reader kept the first, `JSONSerialization` the last).
    @Test func aDuplicateKeyIsAnErrorNamingKeyAndFile() {
        let refused = error(#"{"id":"t","keys":["\#(hash)"],"policy":{"allow":["plist"]},"policy":{"allow":["*"],"inspection":true}}"#)
        #expect(refused?.code == .duplicateKey)
        #expect(refused?.path.hasSuffix("/t.json") == true)
        #expect(refused?.message.contains("'policy'") == true)
        let inline = error(#"{"id":"t","keys":["\#(hash)"],"policy":{"allow":["plist"],"allow":["*"]}}"#)
        #expect(inline?.code == .duplicateKey)
        #expect(inline?.message.contains("/policy/allow") == true)
    }

    @Test func aDuplicateKeyInAPolicyFileNamesThatFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ag-tenants-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/policies", withIntermediateDirectories: true)
        try #"{"allow":["plist"],"inspection":false,"inspection":true}"#.write(toFile: directory + "/policies/p.json", atomically: true, encoding: .utf8)
        try #"{"id":"t","keys":["\#(hash)"],"policy":"policies/p.json"}"#.write(toFile: directory + "/t.json", atomically: true, encoding: .utf8)
        do {
            _ = try TenantRegistry.load(directory: directory, defaults: TenantDefaults())
            Issue.record("loaded")
        } catch {
            #expect(error.code == .invalidPolicy)
            #expect(error.message.contains(directory + "/policies/p.json"), "\(error.message)")
            #expect(error.message.contains("policy.duplicate_key at /inspection"), "\(error.message)")
        }
    }

    @Test(arguments: [#"1e-300"#, #"0"#, #"1e300"#])
    func outOfRangeRatesAreRefused(_ rate: String) {
        let refused = error(#"{"id":"t","keys":["\#(hash)"],"policy":{"allow":["plist"]},"rateLimit":{"requestsPerSecond":\#(rate)}}"#)
        #expect(refused?.code == .invalidValue, "\(rate)")
        #expect(refused?.message.contains("rateLimit.requestsPerSecond") == true)
    }

    @Test(arguments: ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"])
    func publishedDemoKeyIsFineOnLoopback(_ host: String) throws {
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = 0
        configuration.tenantsDirectory = Self.demoTenantDirectory
        _ = try buildApplication(configuration: configuration)
    }

    @Test(arguments: ["0.0.0.0", "::", "192.0.2.10", "example.com", "127.0.0.1.example"])
    func publishedDemoKeyStopsTheStartOffLoopback(_ host: String) {
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = 0
        configuration.extraTenantsDirectories = [Self.demoTenantDirectory]
        #expect(throws: TenantFileError.self) { _ = try buildApplication(configuration: configuration) }
    }

    @Test func otherKeysMayListenAnywhere() throws {
        var configuration = ServerConfiguration()
        configuration.host = "0.0.0.0"
        configuration.port = 0
        configuration.tenantsDirectory = try TestServer.makeConfigDirectory() + "/tenants"
        defer { try? FileManager.default.removeItem(atPath: (configuration.tenantsDirectory! as NSString).deletingLastPathComponent) }
        _ = try buildApplication(configuration: configuration)
    }

    static let demoTenantDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../examples/demo-tenant").standardized.path
}
