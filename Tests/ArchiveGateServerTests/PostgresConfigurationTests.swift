@testable import ArchiveGateServer
import ArchiveGateStore
import Foundation
import Testing

/// `store.kind` and `store.postgres.*`: read strictly like every key, the password only from the
/// environment or a file, and never repeated in a message or a description.
@Suite struct PostgresConfigurationTests {
    private static let secret = "s3cret-never-shown"

    private func load(file: String? = nil, environment: [String: String] = [:],
                      extraFiles: [String: String] = [:]) async throws -> ServerConfiguration {
        let directory = try TestServer.makeConfigDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        if let file { try file.write(toFile: directory + "/server.json", atomically: true, encoding: .utf8) }
        for (name, text) in extraFiles { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
        return try await ServerConfiguration.load(configDirectory: directory, environment: environment)
    }

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

    @Test func theDefaultsAreSQLiteAndALoopbackPostgres() async throws {
        let configuration = try await load(environment: [:])
        #expect(configuration.store.kind == .sqlite)
        #expect(configuration.store.postgres.endpoint == .tcp(host: "127.0.0.1", port: 5432))
        #expect(configuration.store.postgres.username == "archivegate")
        #expect(configuration.store.postgres.password == nil)
        #expect(configuration.store.postgres.tls == .prefer)
    }

    @Test func aURLReplacesHostPortDatabaseAndUser() async throws {
        let configuration = try await load(
            file: #"{"store":{"postgres":{"host":"db.internal","port":6000,"poolSize":3}}}"#,
            environment: ["ARCHIVEGATE_STORE_KIND": "postgres",
                          "ARCHIVEGATE_STORE_POSTGRES_URL": "postgres://app:\(Self.secret)@127.0.0.1:5433/results?sslmode=disable"])
        let postgres = configuration.store.postgres
        #expect(configuration.store.kind == .postgres)
        #expect(postgres.endpoint == .tcp(host: "127.0.0.1", port: 5433))
        #expect(postgres.username == "app")
        #expect(postgres.database == "results")
        #expect(postgres.tls == .disable)
        #expect(postgres.password == Self.secret)
        #expect(postgres.poolSize == 3, "settings the URL does not carry are kept")
        #expect(!"\(postgres)".contains(Self.secret))
    }

    @Test func thePasswordComesFromTheEnvironmentOrAFile() async throws {
        let fromEnvironment = try await load(environment: ["ARCHIVEGATE_STORE_POSTGRES_PASSWORD": Self.secret])
        #expect(fromEnvironment.store.postgres.password == Self.secret)

        let fromFile = try await load(
            file: #"{"store":{"postgres":{"passwordFile":"pg-password"}}}"#, extraFiles: ["pg-password": Self.secret + "\n"])
        #expect(fromFile.store.postgres.password == Self.secret, "one trailing newline is the file's")
    }

    @Test func aPasswordInServerJSONIsRefused() async {
        let error = await error(file: #"{"store":{"postgres":{"password":"\#(Self.secret)"}}}"#)
        #expect(error?.key == "store.postgres.password")
        #expect(error?.message.contains("ARCHIVEGATE_STORE_POSTGRES_PASSWORD") == true)
        #expect(error.map { !"\($0)".contains(Self.secret) } == true)
    }

    @Test func passwordAndPasswordFileTogetherAreRefused() async {
        let error = await error(file: #"{"store":{"postgres":{"passwordFile":"pg-password"}}}"#,
                                environment: ["ARCHIVEGATE_STORE_POSTGRES_PASSWORD": Self.secret])
        #expect(error?.key == "store.postgres.passwordFile")
    }

    @Test(arguments: [
        "mysql://app:\(secret)@127.0.0.1/results",
        "postgres://app:\(secret)@127.0.0.1:99999/results",
        "postgres://app:\(secret)@127.0.0.1/results?sslmode=sometimes",
        "postgres://:\(secret)@127.0.0.1/results",
    ])
    func aBadURLNamesTheKeyButNotThePassword(_ url: String) async {
        let error = await error(environment: ["ARCHIVEGATE_STORE_POSTGRES_URL": url])
        #expect(error?.key == "store.postgres.url")
        #expect(error?.origin == "ARCHIVEGATE_STORE_POSTGRES_URL")
        #expect(error.map { !"\($0)".contains(Self.secret) } == true, "\(String(describing: error))")
    }

    @Test func anUnknownKindOrTLSModeIsRefused() async {
        #expect(await error(environment: ["ARCHIVEGATE_STORE_KIND": "mysql"])?.key == "store.kind")
        #expect(await error(file: #"{"store":{"postgres":{"tls":"verify-full"}}}"#)?.key == "store.postgres.tls")
        #expect(await error(file: #"{"store":{"postgres":{"poolSize":0}}}"#)?.key == "store.postgres.poolSize")
        #expect(await error(file: #"{"store":{"postgres":{"hots":"x"}}}"#)?.key == "store.postgres.hots")
    }

    @Test func testOnlyVariablesAreNotConfiguration() async throws {
        // The test scripts' own variables use another prefix, so a server started from a test
        // environment never trips the strict check.
        _ = try await load(environment: ["AGTEST_POSTGRES_URL": "postgres://x@y/z"])
        #expect(await error(environment: ["ARCHIVEGATE_TEST_POSTGRES_URL": "postgres://x@y/z"])?.key == "ARCHIVEGATE_TEST_POSTGRES_URL")
    }
}
