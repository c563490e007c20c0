@testable import ArchiveGateServer
import Foundation
import Testing

/// Every kind of configuration mistake stops the start with a `ConfigurationError` naming the key;
/// sizes take human suffixes; risky settings need their acknowledgement.
@Suite struct StrictConfigurationTests {
    private func load(file: String? = nil, environment: [String: String] = [:],
                      overrides: [String: String] = [:]) async throws -> ServerConfiguration {
        let directory = try TestServer.makeConfigDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        if let file { try file.write(toFile: directory + "/server.json", atomically: true, encoding: .utf8) }
        return try await ServerConfiguration.load(configDirectory: directory, overrides: overrides, environment: environment)
    }

    /// The error `load` throws, or nil when it loaded.
    private func error(file: String? = nil, environment: [String: String] = [:]) async -> ConfigurationError? {
        do {
            _ = try await load(file: file, environment: environment)
            return nil
        } catch let error as ConfigurationError {
            return error
        } catch {
            Issue.record("expected a ConfigurationError, got \(error)")
            return nil
        }
    }

    @Test func jsonValuesKeepTheirType() throws {
        let parsed = try ConfigurationJSON.parse(Data(#"{"a":1,"b":true,"c":1.5,"d":"1","e":0,"f":false,"g":null}"#.utf8))
        #expect(parsed == .object(["a": .integer(1), "b": .boolean(true), "c": .number(1.5), "d": .string("1"),
                                   "e": .integer(0), "f": .boolean(false), "g": .null]))
    }

    @Test func sizesAcceptBinarySuffixesEverywhere() async throws {
        let fromEnvironment = try await load(environment: ["ARCHIVEGATE_LIMITS_MAX_BODY_BYTES": "1k",
                                                           "ARCHIVEGATE_LIMITS_MAX_ARCHIVE_BYTES": "16MiB"])
        #expect(fromEnvironment.tenantDefaults.maxBodyBytes == 1024)
        #expect(fromEnvironment.tenantDefaults.maxArchiveBytes == 16 << 20)
        #expect(fromEnvironment.fetch.maxBytes == 1024, "fetch.maxBytes defaults to limits.maxBodyBytes")

        let fromFile = try await load(file: #"{"limits":{"maxBodyBytes":"64KiB","maxArchiveBytes":"2G"},"fetch":{"maxBytes":"1000"}}"#)
        #expect(fromFile.tenantDefaults.maxBodyBytes == 64 << 10)
        #expect(fromFile.tenantDefaults.maxArchiveBytes == 2 << 30)
        #expect(fromFile.fetch.maxBytes == 1000)
    }

    @Test(arguments: ["1x", "16MB", "1.5k", "-1", "0", "k", "99999999999999999999G"])
    func unparsableSizesNameTheirKey(_ text: String) async {
        let error = await error(environment: ["ARCHIVEGATE_LIMITS_MAX_BODY_BYTES": text])
        #expect(error?.key == "limits.maxBodyBytes")
        #expect(error?.origin == "ARCHIVEGATE_LIMITS_MAX_BODY_BYTES")
    }

    @Test func misspeltFileKeyIsRefusedWithASuggestion() async {
        let error = await error(file: #"{"limits":{"maxBodyByte":1000}}"#)
        #expect(error?.key == "limits.maxBodyByte")
        #expect(error?.message.contains("did you mean 'limits.maxBodyBytes'") == true)
        #expect(error?.origin?.hasSuffix("server.json") == true)

        let section = await self.error(file: #"{"limit":{"maxBodyBytes":1000}}"#)
        #expect(section?.key == "limit")
    }

    @Test func unknownVariableIsRefusedWithASuggestion() async {
        let error = await error(environment: ["ARCHIVEGATE_LIMITS_MAX_BODY_BYTE": "1000"])
        #expect(error?.key == "ARCHIVEGATE_LIMITS_MAX_BODY_BYTE")
        #expect(error?.message.contains("ARCHIVEGATE_LIMITS_MAX_BODY_BYTES") == true)
        #expect(await self.error(environment: ["ARCHIVEGATE_NONSENSE": "1"])?.key == "ARCHIVEGATE_NONSENSE")
        // Not configuration, and allowed: the folder variable and the test scripts' ones.
        #expect(await self.error(environment: ["ARCHIVEGATE_CONFIG_DIR": "/x", "ARCHIVEGATE_BIN": "/y", "OTHER": "z"]) == nil)
    }

    @Test(arguments: [
        (#"{"http":{"port":"8080"}}"#, "http.port"),
        (#"{"http":{"port":8080.5}}"#, "http.port"),
        (#"{"limits":{"burst":true}}"#, "limits.burst"),
        (#"{"limits":{"maxBodyBytes":true}}"#, "limits.maxBodyBytes"),
        (#"{"limits":{"requestsPerSecond":"fast"}}"#, "limits.requestsPerSecond"),
        (#"{"fetch":{"allowedRanges":"10.0.0.0/8"}}"#, "fetch.allowedRanges"),
        (#"{"fetch":{"allowedRanges":[8]}}"#, "fetch.allowedRanges"),
        (#"{"fetch":{"allowedRanges":["10.0.0.1/8"]}}"#, "fetch.allowedRanges"),
        (#"{"store":{"enabled":"yes"}}"#, "store.enabled"),
        (#"{"store":{"path":""}}"#, "store.path"),
        (#"{"log":{"level":"loud"}}"#, "log.level"),
        (#"{"http":{"host":["a"]}}"#, "http.host"),
        (#"{"http":8080}"#, "http"),
    ])
    func wrongTypesInTheFileNameTheirKey(_ file: String, _ key: String) async {
        #expect(await error(file: file)?.key == key, "\(file)")
    }

    @Test(arguments: [
        ("ARCHIVEGATE_HTTP_PORT", "80a"), ("ARCHIVEGATE_STORE_ENABLED", "1"), ("ARCHIVEGATE_LIMITS_BURST", "1.5"),
        ("ARCHIVEGATE_FETCH_ALLOWED_RANGES", "10.0.0.0/8,nonsense"), ("ARCHIVEGATE_LOG_LEVEL", "loud"),
    ])
    func wrongValuesInVariablesNameTheirKey(_ variable: String, _ value: String) async {
        let error = await error(environment: [variable: value])
        #expect(error?.origin == variable)
        #expect(error.map { ConfigurationKey<Int>.environmentName(of: $0.key) } == variable)
    }

    @Test func notJSONIsRefused() async {
        #expect(await error(file: #"{"http": {"#)?.origin?.hasSuffix("server.json") == true)
        #expect(await error(file: #"[1]"#) != nil)
    }

    @Test func wideAllowedRangesNeedTheirAcknowledgement() async throws {
        for ranges in [#"["0.0.0.0/0"]"#, #"["::/0"]"#, #"["10.0.0.0/8","0.0.0.0/1"]"#] {
            let error = await error(file: #"{"fetch":{"allowedRanges":\#(ranges)}}"#)
            #expect(error?.key == "fetch.allowedRanges", "\(ranges)")
            #expect(error?.message.contains("fetch.acknowledgeWideAllowedRanges") == true)
        }
        let acknowledged = try await load(file: #"{"fetch":{"allowedRanges":["0.0.0.0/0"],"acknowledgeWideAllowedRanges":true}}"#)
        #expect(acknowledged.fetch.allowedRanges.map(\.description) == ["0.0.0.0/0"])
        #expect(acknowledged.riskySettings.count == 1)
        #expect(acknowledged.riskySettings.first?.contains("0.0.0.0/0") == true)

        let narrow = try await load(environment: ["ARCHIVEGATE_FETCH_ALLOWED_RANGES": "127.0.0.0/8,fd00::/8"])
        #expect(narrow.fetch.allowedRanges.count == 2)
        #expect(narrow.riskySettings.isEmpty)
    }

    /// Issue 31: 1e-300 requests per second loaded and then trapped in the token bucket.
    @Test(arguments: [
        (#"{"limits":{"requestsPerSecond":1e-300}}"#, "limits.requestsPerSecond"),
        (#"{"limits":{"requestsPerSecond":1e10}}"#, "limits.requestsPerSecond"),
        (#"{"limits":{"burst":9223372036854775807}}"#, "limits.burst"),
        (#"{"memory":{"budgetFraction":1e-300}}"#, "memory.budgetFraction"),
        (#"{"memory":{"tenantShare":0.0000001}}"#, "memory.tenantShare"),
    ])
    func outOfRangeNumbersAreRefusedAtLoad(_ file: String, _ key: String) async {
        let error = await error(file: file)
        #expect(error?.code == .invalidValue, "\(file)")
        #expect(error?.key == key)
        #expect(error?.origin?.hasSuffix("server.json") == true)
        #expect(await self.error(environment: ["ARCHIVEGATE_LIMITS_REQUESTS_PER_SECOND": "1e-300"])?.key == "limits.requestsPerSecond")
    }

    /// Issue 31: `JSONDecoder` kept the first of two equal keys, silently.
    @Test func aDuplicateKeyIsAnErrorNamingKeyAndFile() async {
        let error = await error(file: #"{"limits": {"burst": 10, "maxBodyBytes": "1k", "burst": 100000}}"#)
        #expect(error?.code == .duplicateKey)
        #expect(error?.key == "limits.burst")
        #expect(error?.origin?.hasSuffix("/server.json") == true)
        #expect(error?.message.contains("'burst'") == true)
    }

    /// Issue 31: `::/8` is a /8 yet admits `::1`, SIIT and NAT64; what a range admits of the deny
    /// list decides, not only its prefix length.
    @Test(arguments: ["::/8", "64:ff9b::/96", "::ffff:0:0:0/96", "2002:7f00:1::/48", "172.0.0.0/8", "192.0.0.0/8"])
    func rangesAdmittingMoreThanOneProtectedNetworkNeedTheAcknowledgement(_ range: String) async throws {
        let error = await error(file: #"{"fetch":{"allowedRanges":["\#(range)"]}}"#)
        #expect(error?.code == .unacknowledgedRisk, "\(range)")
        #expect(error?.key == "fetch.allowedRanges")
        #expect(error?.message.contains(range) == true, "\(error?.message ?? "")")
        let acknowledged = try await load(file: #"{"fetch":{"allowedRanges":["\#(range)"],"acknowledgeWideAllowedRanges":true}}"#)
        #expect(acknowledged.riskySettings.count == 1)
    }

    @Test(arguments: ["127.0.0.0/8", "10.1.0.0/16", "::1", "fd00::/8", "100.64.0.0/10", "203.0.113.0/24", "2001:db8::/32"])
    func rangesInsideOneProtectedNetworkOrNoneNeedNoAcknowledgement(_ range: String) async throws {
        let loaded = try await load(file: #"{"fetch":{"allowedRanges":["\#(range)"]}}"#)
        #expect(loaded.fetch.allowedRanges.map(\.description).count == 1)
        #expect(loaded.riskySettings.isEmpty, "\(loaded.riskySettings)")
    }

    @Test func everyShippedValueLoadsAndEveryKeyCanBeSetByVariable() async throws {
        // One variable per key with its own default written as text: all accepted.
        var environment: [String: String] = [:]
        for key in ConfigurationDefaults.all {
            guard case .value(let json) = key.documentedDefault else { continue }
            switch json {
            case .integer(let value): environment[key.environmentName] = String(value)
            case .number(let value): environment[key.environmentName] = String(value)
            case .boolean(let value): environment[key.environmentName] = String(value)
            case .string(let value): environment[key.environmentName] = value
            case .array: environment[key.environmentName] = ""
            default: Issue.record("unexpected default kind for \(key.name)")
            }
        }
        let loaded = try await load(environment: environment)
        let defaults = try await ServerConfiguration.load(configDirectory: nil, environment: [:])
        #expect(loaded.port == defaults.port)
        #expect(loaded.store == defaults.store)
        #expect(loaded.tenantDefaults == defaults.tenantDefaults)
    }
}
