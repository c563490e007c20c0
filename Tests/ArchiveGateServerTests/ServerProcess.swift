import ArchiveGateServer
import ArchiveGateTestSupport
import Foundation

/// `archivegate serve` as a child process on a free loopback port, with the test tenants.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    private let configDirectory: String
    private let ownsConfigDirectory: Bool

    private init(port: Int, configDirectory: String, ownsConfigDirectory: Bool) {
        self.port = port
        self.configDirectory = configDirectory
        self.ownsConfigDirectory = ownsConfigDirectory
    }

    /// The binary SwiftPM built next to the test bundle (or `$ARCHIVEGATE_BINARY`).
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["ARCHIVEGATE_BINARY"] { return URL(fileURLWithPath: path) }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // The test binary may live inside `X.xctest/…`; walk up to the products folder.
        while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("archivegate")
    }

    /// Starts the binary and waits until it listens.
    /// - Parameters:
    ///   - environment: added to the test's own environment (whose `AGTEST_*` variables the server
    ///     ignores: only `ARCHIVEGATE_*` names are configuration).
    ///   - configDirectory: a folder from ``TestServer/makeConfigDirectory()`` to share between
    ///     processes (replicas); nil makes one that ``terminateIfRunning()`` removes.
    static func start(environment: [String: String] = [:], configDirectory: String? = nil) throws -> ServerProcess {
        // A port picked at random can still be taken before the server binds it; then it exits at
        // once and another port is tried.
        var attempt = 0
        while true {
            attempt += 1
            let server = try launch(environment: environment, configDirectory: configDirectory)
            do {
                try server.waitUntilHealthy()
                return server
            } catch ServerProcessError.exited where attempt < 3 {
                server.terminateIfRunning()
            }
        }
    }

    /// Starts the binary without waiting, so several can start at the same moment; then ``waitUntilListening()``.
    static func launch(environment: [String: String] = [:], configDirectory: String? = nil) throws -> ServerProcess {
        let directory = try configDirectory ?? TestServer.makeConfigDirectory()
        // From the kernel, not at random: a random port was now and then "already in use", or
        // already another test's server, which the readiness probe then mistook for this one.
        guard let port = Loopback.freePort() else { throw ServerProcessError.notListening }
        let server = ServerProcess(port: port, configDirectory: directory, ownsConfigDirectory: configDirectory == nil)
        server.process.executableURL = binary
        server.process.arguments = ["serve", "--config", directory, "--port", String(port), "--log-level", "warning"]
        server.process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        server.process.currentDirectoryURL = URL(fileURLWithPath: directory)
        server.process.standardOutput = FileHandle.nullDevice
        try server.process.run()
        return server
    }

    func waitUntilListening() throws {
        try waitUntilHealthy()
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
        if ownsConfigDirectory { try? FileManager.default.removeItem(atPath: configDirectory) }
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
