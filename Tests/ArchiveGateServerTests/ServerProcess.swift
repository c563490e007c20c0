import ArchiveGateServer
import ArchiveGateTestSupport
import Foundation

/// `archivegate serve` as a child process on a free loopback port, with the test tenants.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    private let configDirectory: String

    private init(port: Int, configDirectory: String) {
        self.port = port
        self.configDirectory = configDirectory
    }

    /// The binary SwiftPM built next to the test bundle (or `$ARCHIVEGATE_BINARY`).
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["ARCHIVEGATE_BINARY"] { return URL(fileURLWithPath: path) }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // The test binary may live inside `X.xctest/…`; walk up to the products folder.
        while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("archivegate")
    }

    static func start() throws -> ServerProcess {
        let directory = try TestServer.makeConfigDirectory()
        let port = Int.random(in: 20_000...40_000)
        let server = ServerProcess(port: port, configDirectory: directory)
        server.process.executableURL = binary
        server.process.arguments = ["serve", "--config", directory, "--port", String(port), "--log-level", "warning"]
        server.process.standardOutput = FileHandle.nullDevice
        try server.process.run()
        try server.waitUntilHealthy()
        return server
    }

    private func waitUntilHealthy() throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            guard process.isRunning else { throw ServerProcessError.exited(process.terminationStatus) }
            if Self.canConnect(port: port) { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw ServerProcessError.notListening
    }

    /// Whether a TCP connection to the port on 127.0.0.1 is accepted now.
    static func canConnect(port: Int) -> Bool {
        Loopback.acceptsConnections(port: port)
    }

    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    func waitForExit(timeout: Duration) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else { throw ServerProcessError.didNotExit }
            try await Task.sleep(for: .milliseconds(50))
        }
        return process.terminationStatus
    }

    func terminateIfRunning() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: configDirectory)
    }
}

enum ServerProcessError: Error {
    case exited(Int32)
    case notListening
    case didNotExit
}

extension ServerProcess {
    /// The socket count once it has stopped changing for half a second: the readiness probe's
    /// connection is gone and only the listeners remain.
    func settledSocketCount() async throws -> Int {
        var last = openSocketCount()
        var stableSince = ContinuousClock.now
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            let now = openSocketCount()
            if now != last {
                last = now
                stableSince = ContinuousClock.now
            } else if ContinuousClock.now - stableSince >= .milliseconds(500) {
                return now
            }
        }
        return last
    }

    /// How many sockets the server process holds (listener and accepted connections), read from
    /// /proc: the way a test knows connections were *accepted*, not just queued by the kernel.
    func openSocketCount() -> Int {
        let directory = "/proc/\(process.processIdentifier)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + entry))?.hasPrefix("socket:") == true
        }.count
    }
}
