import ArchiveGateTestSupport
import AsyncHTTPClient
import Foundation
import Testing

/// A replica on a PostgreSQL cluster of the test's own (so stopping it disturbs no other test):
/// while the database is down, validate keeps answering, store requests fail fast with
/// `503 store.unavailable` and `Retry-After`, `/readyz` says why; when it is back the same process
/// serves the store again — no restart, nothing acknowledged lost.
@Suite(.enabled(if: ReplicaDatabase.isAvailable, ReplicaDatabase.skipReason), .timeLimit(.minutes(3)))
struct StoreOutageTests {
    @Test func aDatabaseOutageIsA503AndTheReplicaRecoversWithoutARestart() async throws {
        // Processes are started and awaited off the cooperative pool (two threads here): blocking
        // it would stall every other test running meanwhile.
        let cluster = try await offCooperativePool { try PrivateCluster.make() }
        defer { cluster.remove() }
        let server = try await offCooperativePool { try ServerProcess.start(environment: [
            "ARCHIVEGATE_STORE_KIND": "postgres", "ARCHIVEGATE_STORE_POSTGRES_URL": cluster.serverURL,
            "ARCHIVEGATE_STORE_POSTGRES_OPERATION_TIMEOUT_MILLISECONDS": "3000",
        ]) }
        defer { server.terminateIfRunning() }
        let key = TestTenant.alpha.key
        let stored = try await TestServer.send("/v1/archives", port: server.port, key: key, body: try Fixtures.uniqueArchive(1))
        #expect(stored.status == 201)
        let location = try #require(stored.headers.first(name: "Location"))

        try await offCooperativePool { try cluster.run("stop", "immediate") }
        let validate = try await TestServer.send("/v1/validate", port: server.port, key: key, body: try Fixtures.plainArchive())
        #expect(validate.status == 200)
        let started = ContinuousClock.now
        let read = try await TestServer.send(location, method: .GET, port: server.port, key: key, body: nil)
        let write = try await TestServer.send("/v1/archives", port: server.port, key: key, body: try Fixtures.uniqueArchive(2))
        for reply in [read, write] {
            #expect(reply.status == 503, "\(reply.text)")
            #expect(reply.json["code"] as? String == "store.unavailable")
            #expect(reply.headers.first(name: "Retry-After") != nil)
        }
        #expect(ContinuousClock.now - started < .seconds(20), "store requests fail within the operation timeout")
        let notReady = try await TestServer.send("/readyz", method: .GET, port: server.port, body: nil)
        #expect(notReady.status == 503)
        #expect(notReady.json["reason"] as? String == "store unavailable")

        try await offCooperativePool { try cluster.run("start") }
        // Polled until the pool has reconnected (no restart of the server in between).
        let deadline = ContinuousClock.now + .seconds(60)
        var ready = try await TestServer.send("/readyz", method: .GET, port: server.port, body: nil)
        while ready.status != 200 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            ready = try await TestServer.send("/readyz", method: .GET, port: server.port, body: nil)
        }
        #expect(ready.status == 200)
        #expect(server.process.isRunning, "the same process, not a restarted one")
        let again = try await TestServer.send(location, method: .GET, port: server.port, key: key, body: nil)
        #expect(again.status == 200)
        #expect(again.body == stored.body, "the acknowledged result survived the immediate stop")
        #expect(try await TestServer.send("/v1/archives", port: server.port, key: key, body: try Fixtures.uniqueArchive(3)).status == 201)
    }
}

/// A throwaway PostgreSQL cluster made by scripts/lib-store/pgcluster.py (initdb on a free port).
struct PrivateCluster {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/lib-store/pgcluster.py").standardized.path
    let directory: String
    let port: Int
    let serverURL: String

    static func make() throws -> PrivateCluster {
        let output = try Self.python(["init"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        return PrivateCluster(directory: try #require(object["directory"] as? String), port: try #require(object["port"] as? Int),
                              serverURL: try #require(object["server_url"] as? String))
    }

    func run(_ command: String, _ extra: String...) throws {
        _ = try Self.python([command, directory, String(port)] + extra)
    }

    func remove() {
        _ = try? Self.python(["remove", directory, String(port)])
    }

    @discardableResult
    private static func python(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0 else { throw ReplicaDatabaseError(message: "pgcluster.py \(arguments.first ?? ""): exit \(process.terminationStatus)") }
        return text
    }
}
