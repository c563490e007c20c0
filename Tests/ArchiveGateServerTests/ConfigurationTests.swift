import ArchiveGateKeys
@testable import ArchiveGateServer
import Foundation
import Testing

/// Defaults, file, environment and flags, in that order of precedence; and the tenant files.
@Suite struct ConfigurationTests {
    @Test func defaultsNeedNoFile() async throws {
        let configuration = try await ServerConfiguration.load(configDirectory: nil, environment: [:])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.tenantsDirectory == nil)
        #expect(configuration.headerTimeout == .seconds(10))
        #expect(configuration.bodyTimeout == .seconds(120))
    }

    @Test func flagsOverrideEnvironmentOverridesFile() async throws {
        let directory = try TestServer.makeConfigDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #"{"http":{"host":"0.0.0.0","port":9000,"idleTimeoutSeconds":5},"limits":{"burst":7},"log":{"level":"debug"}}"#
            .write(toFile: directory + "/server.json", atomically: true, encoding: .utf8)
        let environment = ["ARCHIVEGATE_HTTP_PORT": "9100", "ARCHIVEGATE_LIMITS_MAX_BODY_BYTES": "1234",
                           "ARCHIVEGATE_HTTP_BODY_TIMEOUT_SECONDS": "45"]

        let fromFileAndEnvironment = try await ServerConfiguration.load(configDirectory: directory, environment: environment)
        #expect(fromFileAndEnvironment.host == "0.0.0.0")
        #expect(fromFileAndEnvironment.port == 9100)
        #expect(fromFileAndEnvironment.idleTimeout == .seconds(5))
        #expect(fromFileAndEnvironment.bodyTimeout == .seconds(45))
        #expect(fromFileAndEnvironment.tenantDefaults.burst == 7)
        #expect(fromFileAndEnvironment.tenantDefaults.maxBodyBytes == 1234)
        #expect(fromFileAndEnvironment.logLevel == .debug)
        #expect(fromFileAndEnvironment.tenantsDirectory == directory + "/tenants")

        let withFlags = try await ServerConfiguration.load(configDirectory: directory, overrides: ["http.port": "9200"], environment: environment)
        #expect(withFlags.port == 9200)
    }

    @Test func storeKeysFromFileAndEnvironment() async throws {
        let defaults = try await ServerConfiguration.load(configDirectory: nil, environment: [:])
        #expect(defaults.store == StoreSettings())
        #expect(defaults.store.path == "./data/archivegate.sqlite")
        #expect(defaults.store.retention == .seconds(604_800))
        #expect(defaults.store.enabled)

        let directory = try TestServer.makeConfigDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #"{"store":{"path":"/var/lib/ag/results.sqlite","retentionSeconds":3600,"purgeIntervalSeconds":30,"maxPageSize":50}}"#
            .write(toFile: directory + "/server.json", atomically: true, encoding: .utf8)
        let environment = ["ARCHIVEGATE_STORE_BUSY_TIMEOUT_MILLISECONDS": "250", "ARCHIVEGATE_STORE_ENABLED": "false"]
        let loaded = try await ServerConfiguration.load(configDirectory: directory, environment: environment)
        #expect(loaded.store.path == "/var/lib/ag/results.sqlite")
        #expect(loaded.store.retention == .seconds(3600))
        #expect(loaded.store.purgeInterval == .seconds(30))
        #expect(loaded.store.maxPageSize == 50)
        #expect(loaded.store.busyTimeout == .milliseconds(250))
        #expect(!loaded.store.enabled)

        for (name, value) in [("ARCHIVEGATE_STORE_RETENTION_SECONDS", "0"), ("ARCHIVEGATE_STORE_MAX_PAGE_SIZE", "0"),
                              ("ARCHIVEGATE_STORE_PURGE_INTERVAL_SECONDS", "-5")] {
            await #expect(throws: ConfigurationError.self, "\(name)=\(value)") {
                _ = try await ServerConfiguration.load(configDirectory: nil, environment: [name: value])
            }
        }
    }

    @Test func outOfRangeValuesNameTheirKey() async throws {
        await #expect(throws: ConfigurationError.self) {
            _ = try await ServerConfiguration.load(configDirectory: nil, environment: ["ARCHIVEGATE_HTTP_PORT": "70000"])
        }
    }

    @Test func demoTenantLoadsAsAnExtraFolder() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
        let configuration = try await ServerConfiguration.load(configDirectory: root.appendingPathComponent("config").path, environment: [:])
        let registry = try TenantRegistry.load(
            directories: [configuration.tenantsDirectory!, root.appendingPathComponent("examples/demo-tenant").path],
            defaults: configuration.tenantDefaults)
        #expect(registry.authenticate(key: "demo-key-change-me")?.id == "demo")
        #expect(registry.authenticate(key: "demo-key-change-me ") == nil)
    }

    @Test func tenantFilesRejectUnknownFieldsAndPlaintextKeys() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ag-tenants-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #"{"id":"x","keys":["plaintext-key"],"policy":{"allow":["plist"]}}"#
            .write(toFile: directory + "/x.json", atomically: true, encoding: .utf8)
        #expect(throws: TenantFileError.self) { try TenantRegistry.load(directory: directory, defaults: TenantDefaults()) }
        try #"{"id":"x","keys":["\#(APIKeyHash(key: "k").hex)"],"policy":{"allow":["plist"]},"maxBodyByte":1}"#
            .write(toFile: directory + "/x.json", atomically: true, encoding: .utf8)
        #expect(throws: TenantFileError.self) { try TenantRegistry.load(directory: directory, defaults: TenantDefaults()) }
    }
}
