import ArchiveGateTestSupport
import Foundation

extension CLIRunner {
    /// `archivegate serve` as a child process on a loopback port, for CLI tests that need the server
    /// to accept what a command produced (a key hash, a policy).
    final class Server {
        let process = Process()
        let port = Int.random(in: 20_000...40_000)
        let directory: URL

        init(configDirectory: URL) {
            directory = configDirectory
        }

        /// The status `curl` got for a POST of `body` with `key` as the bearer token.
        func postStatus(_ path: String, key: String, body: [UInt8]) throws -> Int {
            let file = directory.appendingPathComponent("body-\(UUID().uuidString)")
            try Data(body).write(to: file)
            return try curlStatus(path, ["-H", "Authorization: Bearer \(key)", "-H", "Content-Type: application/octet-stream",
                                         "--data-binary", "@\(file.path)"])
        }

        /// The status `curl` got for a GET of `path`.
        func getStatus(_ path: String) throws -> Int {
            try curlStatus(path, [])
        }

        private func curlStatus(_ path: String, _ arguments: [String]) throws -> Int {
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            // Other tests in this process set proxy variables to prove the fetcher ignores them; curl
            // must not inherit them, or it would talk to their proxy instead of this server.
            curl.environment = ["PATH": "/usr/bin:/bin"]
            curl.arguments = ["-s", "--noproxy", "*", "-o", "/dev/null", "-w", "%{http_code}"] + arguments
                + ["http://127.0.0.1:\(port)\(path)"]
            let output = Pipe()
            curl.standardOutput = output
            try curl.run()
            let status = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            curl.waitUntilExit()
            return Int(status) ?? -1
        }

        func stop() {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `archivegate serve --config DIR` (working directory DIR, so its store lands there) and
    /// returns once it accepts connections.
    static func serve(configDirectory: URL) throws -> Server {
        let server = Server(configDirectory: configDirectory)
        server.process.executableURL = binary
        server.process.arguments = ["serve", "--config", configDirectory.path, "--port", String(server.port), "--log-level", "warning"]
        server.process.currentDirectoryURL = configDirectory
        server.process.standardOutput = FileHandle.nullDevice
        try server.process.run()
        let deadline = Date().addingTimeInterval(30)
        while !Loopback.acceptsConnections(port: server.port) {
            guard server.process.isRunning else {
                throw ServerDidNotStart(description: "archivegate serve exited with \(server.process.terminationStatus)")
            }
            guard Date() < deadline else {
                server.stop()
                throw ServerDidNotStart(description: "archivegate serve did not listen on \(server.port) within 30 s")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return server
    }
}
