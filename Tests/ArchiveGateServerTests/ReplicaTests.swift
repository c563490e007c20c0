import ArchiveGateTestSupport
import AsyncHTTPClient
import Foundation
import Testing

/// Two real `archivegate serve` processes on loopback sharing one PostgreSQL database (a new one
/// per test on the server scripts/postgres-test-server started): what one replica stores, the
/// other serves; what one deletes, the other no longer has.
@Suite(.enabled(if: ReplicaDatabase.isAvailable, ReplicaDatabase.skipReason), .timeLimit(.minutes(3)))
struct ReplicaTests {
    @Test func whatOneReplicaStoresTheOtherServesAndDeletes() async throws {
        try await withReplicas { a, b in
            let archive = try Fixtures.plainArchive()
            let created = try await TestServer.send("/v1/archives", port: a.port, key: TestTenant.alpha.key, body: archive)
            #expect(created.status == 201)
            let location = try #require(created.headers.first(name: "Location"))
            let fromB = try await TestServer.send(location, method: .GET, port: b.port, key: TestTenant.alpha.key, body: nil)
            #expect(fromB.status == 200)
            #expect(fromB.body == created.body)
            let jsonFromA = try await TestServer.send(location + "/json", method: .GET, port: a.port, key: TestTenant.alpha.key, body: nil)
            let jsonFromB = try await TestServer.send(location + "/json", method: .GET, port: b.port, key: TestTenant.alpha.key, body: nil)
            #expect(jsonFromB.status == 200)
            #expect(jsonFromB.body == jsonFromA.body)
            #expect(jsonFromB.headers.first(name: "ETag") == jsonFromA.headers.first(name: "ETag"))
            // Another tenant sees nothing on either replica.
            let foreign = try await TestServer.send(location, method: .GET, port: b.port, key: TestTenant.beta.key, body: nil)
            #expect(foreign.status == 404)

            for index in 0..<5 {
                let reply = try await TestServer.send(
                    "/v1/archives", port: index.isMultiple(of: 2) ? a.port : b.port, key: TestTenant.alpha.key,
                    body: try Fixtures.uniqueArchive(index))
                #expect(reply.status == 201)
            }
            let listA = try await TestServer.send("/v1/archives?limit=3", method: .GET, port: a.port, key: TestTenant.alpha.key, body: nil)
            let listB = try await TestServer.send("/v1/archives?limit=3", method: .GET, port: b.port, key: TestTenant.alpha.key, body: nil)
            #expect(listA.status == 200)
            #expect(listA.body == listB.body)
            let cursor = try #require(listA.json["nextCursor"] as? String)
            let nextA = try await TestServer.send("/v1/archives?limit=3&cursor=\(cursor)", method: .GET, port: a.port, key: TestTenant.alpha.key, body: nil)
            let nextB = try await TestServer.send("/v1/archives?limit=3&cursor=\(cursor)", method: .GET, port: b.port, key: TestTenant.alpha.key, body: nil)
            #expect((nextA.json["items"] as? [Any])?.count == 3)
            #expect(nextA.body == nextB.body)

            let deleted = try await TestServer.send(location, method: .DELETE, port: b.port, key: TestTenant.alpha.key, body: nil)
            #expect(deleted.status == 204)
            let gone = try await TestServer.send(location, method: .GET, port: a.port, key: TestTenant.alpha.key, body: nil)
            #expect(gone.status == 404)
        }
    }

    @Test func thirtyTwoClientsSendingTheSameBytesToBothReplicasGetOneId() async throws {
        try await withReplicas { a, b in
            let archive = try Fixtures.uniqueArchive(4242)
            let client = HTTPClient.parallel(32)
            defer { _ = client.shutdown() }
            let replies = try await withThrowingTaskGroup(of: TestReply.self) { group in
                for index in 0..<32 {
                    group.addTask {
                        try await TestServer.send("/v1/archives", port: index.isMultiple(of: 2) ? a.port : b.port,
                                                  key: TestTenant.alpha.key, body: archive, client: client)
                    }
                }
                return try await group.reduce(into: [TestReply]()) { $0.append($1) }
            }
            #expect(replies.filter { $0.status == 201 }.count == 1, "\(replies.map(\.status))")
            #expect(replies.filter { $0.status == 200 }.count == 31)
            #expect(Set(replies.compactMap { $0.headers.first(name: "Location") }).count == 1)
            #expect(Set(replies.map(\.body)).count == 1)
        }
    }

    /// Both replicas start at the same moment against an empty database: the migrations run once
    /// (the ledger holds each version once) and both become ready.
    @Test func replicasStartingTogetherMigrateOnce() async throws {
        try await withReplicas { a, b in
            for replica in [a, b] {
                let ready = try await TestServer.send("/readyz", method: .GET, port: replica.port, body: nil)
                #expect(ready.status == 200, "\(ready.text)")
            }
        }
        // withReplicas checked the ledger too; this test is the plain start-up race.
    }

    /// Starts two replicas at once on a fresh database, runs `body`, then stops them and drops it.
    private func withReplicas(_ body: (ServerProcess, ServerProcess) async throws -> Void) async throws {
        // Processes are started and awaited off the cooperative pool (two threads here): blocking
        // it would stall every other test running meanwhile.
        let database = try await offCooperativePool { try ReplicaDatabase.make() }
        defer { database.drop() }
        let directory = try TestServer.makeConfigDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["ARCHIVEGATE_STORE_KIND": "postgres", "ARCHIVEGATE_STORE_POSTGRES_URL": database.url]
        let a = try ServerProcess.launch(environment: environment, configDirectory: directory)
        let b = try ServerProcess.launch(environment: environment, configDirectory: directory)
        defer {
            a.terminateIfRunning()
            b.terminateIfRunning()
        }
        try await offCooperativePool {
            try a.waitUntilListening()
            try b.waitUntilListening()
        }
        let ledger = try await offCooperativePool {
            try database.psql("SELECT count(*) || ' ' || count(DISTINCT version) || ' ' || max(version) FROM schema_migrations")
        }
        let parts = ledger.split(separator: " ")
        #expect(parts.count == 3 && parts[0] == parts[1] && parts[1] == parts[2], "ledger: \(ledger)")
        try await body(a, b)
    }
}

/// A database of its own for one replica test, made and dropped with `psql` as the superuser.
struct ReplicaDatabase {
    static let environment = ProcessInfo.processInfo.environment
    static var isAvailable: Bool {
        environment["AGTEST_POSTGRES_URL"] != nil && environment["AGTEST_POSTGRES_SERVER_URL"] != nil
    }
    static let skipReason = Comment(rawValue: environment["AGTEST_POSTGRES_UNAVAILABLE"].map { "PostgreSQL unavailable: \($0)" }
        ?? "AGTEST_POSTGRES_URL is not set: run the tests through scripts/postgres-test-server (scripts/test does)")
    static let psqlPath = (environment["AGTEST_POSTGRES_BIN"] ?? "/usr/lib/postgresql/15/bin") + "/psql"

    let name: String
    /// What the replicas connect with: the `archivegate` role over TCP with its password.
    let url: String

    static func make() throws -> ReplicaDatabase {
        let name = "agreplica_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let server = try #require(environment["AGTEST_POSTGRES_SERVER_URL"])
        // …/archivegate?sslmode=disable → …/<name>?sslmode=disable
        guard let slash = server.lastIndex(of: "/"), let question = server.lastIndex(of: "?") else {
            throw ServerProcessError.notListening
        }
        let url = String(server[...slash]) + name + String(server[question...])
        let database = ReplicaDatabase(name: name, url: url)
        _ = try database.psql("CREATE DATABASE \(name) OWNER archivegate", database: "postgres")
        return database
    }

    func drop() {
        _ = try? psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", database: "postgres")
    }

    /// Runs one statement as the superuser over the socket; returns its unaligned output.
    func psql(_ sql: String, database: String? = nil) throws -> String {
        let superuser = Self.environment["AGTEST_POSTGRES_URL"] ?? ""
        let target = superuser.replacingOccurrences(of: "/postgres?", with: "/\(database ?? name)?")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.psqlPath)
        process.arguments = [target, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0 else { throw ReplicaDatabaseError(message: "psql: \(text)") }
        return text
    }
}

struct ReplicaDatabaseError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
