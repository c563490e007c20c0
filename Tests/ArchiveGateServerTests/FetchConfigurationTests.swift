import ArchiveGateKeys
@testable import ArchiveGateServer
import ArchiveGateFetch
import Foundation
import Testing

/// The `fetch.*` keys and the tenant file's `fetchAllowedHosts`.
@Suite struct FetchConfigurationTests {
    @Test func fetchKeysHaveSafeDefaults() async throws {
        let configuration = try await ServerConfiguration.load(configDirectory: nil, environment: ["ARCHIVEGATE_LIMITS_MAX_BODY_BYTES": "4096"])
        #expect(configuration.fetch.allowedRanges.isEmpty)
        #expect(configuration.fetch.maxBytes == 4096)  // the upload body limit
        #expect(configuration.fetch.connectTimeout == .seconds(5))
        #expect(configuration.fetch.totalTimeout == .seconds(30))
        #expect(configuration.fetch.maxConcurrentPerTenant == 4)
    }

    @Test func fetchKeysLoadFromFileAndEnvironment() async throws {
        let directory = try TestServer.makeConfigDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #"{"fetch":{"allowedRanges":["127.0.0.0/8","fd00::/8"],"maxBytes":100,"connectTimeoutSeconds":2,"totalTimeoutSeconds":9,"maxConcurrentPerTenant":1}}"#
            .write(toFile: directory + "/server.json", atomically: true, encoding: .utf8)
        let fromFile = try await ServerConfiguration.load(configDirectory: directory, environment: [:])
        #expect(fromFile.fetch.allowedRanges == [IPAddressRange("127.0.0.0/8")!, IPAddressRange("fd00::/8")!])
        #expect(fromFile.fetch.maxBytes == 100)
        #expect(fromFile.fetch.connectTimeout == .seconds(2))
        #expect(fromFile.fetch.totalTimeout == .seconds(9))
        #expect(fromFile.fetch.maxConcurrentPerTenant == 1)

        let fromEnvironment = try await ServerConfiguration.load(
            configDirectory: directory, environment: ["ARCHIVEGATE_FETCH_ALLOWED_RANGES": "10.0.0.0/8,192.168.1.0/24"])
        #expect(fromEnvironment.fetch.allowedRanges == [IPAddressRange("10.0.0.0/8")!, IPAddressRange("192.168.1.0/24")!])

        await #expect(throws: ConfigurationError.self) {
            _ = try await ServerConfiguration.load(configDirectory: nil, environment: ["ARCHIVEGATE_FETCH_ALLOWED_RANGES": "10.0.0.1/8"])
        }
    }

    @Test func tenantFetchAllowedHosts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ag-tenants-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let hash = APIKeyHash(key: "k").hex
        try #"{"id":"x","keys":["\#(hash)"],"policy":{"allow":["plist"]},"fetchAllowedHosts":["a.example.com","*.cdn.example"]}"#
            .write(toFile: directory + "/x.json", atomically: true, encoding: .utf8)
        let registry = try TenantRegistry.load(directory: directory, defaults: TenantDefaults())
        #expect(registry.authenticate(key: "k")?.fetchAllowedHosts == ["a.example.com", "*.cdn.example"])

        try #"{"id":"x","keys":["\#(hash)"],"policy":{"allow":["plist"]},"fetchAllowedHosts":"a.example.com"}"#
            .write(toFile: directory + "/x.json", atomically: true, encoding: .utf8)
        #expect(throws: TenantFileError.self) { try TenantRegistry.load(directory: directory, defaults: TenantDefaults()) }
    }
}
