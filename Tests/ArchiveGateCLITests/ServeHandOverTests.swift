import Foundation
import Testing

/// `archivegate serve` is a hand-over: the CLI execs `archivegate-server` from its own folder
/// (ServerHandOver), so users and scripts keep running `archivegate serve …`.
@Suite struct ServeHandOverTests {
    /// A real process: started as `archivegate serve`, it becomes the server (same pid, now the
    /// `archivegate-server` executable), answers /healthz on loopback and exits 0 on SIGTERM.
    @Test func serveHandsTheProcessToTheServerWhichAnswersAndStopsOnSIGTERM() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tenants = directory.appendingPathComponent("tenants")
        try FileManager.default.createDirectory(at: tenants, withIntermediateDirectories: true)
        let hash = try CLIRunner.run(["hash-key", "k-\(UUID().uuidString)"]).stdout.trimmingCharacters(in: .newlines)
        let tenant = #"{"id": "handover", "keys": ["\#(hash)"], "policy": {"allow": ["foundation"]}}"#
        try Data(tenant.utf8).write(to: tenants.appendingPathComponent("handover.json"))

        let server = try CLIRunner.serve(configDirectory: directory)
        defer { server.stop() }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(server.process.processIdentifier)/exe")
        #expect(URL(fileURLWithPath: executable).lastPathComponent == "archivegate-server")
        #expect(URL(fileURLWithPath: executable).deletingLastPathComponent().standardizedFileURL.path
            == CLIRunner.binary.resolvingSymlinksInPath().deletingLastPathComponent().standardizedFileURL.path)
        #expect(try server.getStatus("/healthz") == 200)

        server.process.terminate()  // SIGTERM to the pid `archivegate serve` was started as
        server.process.waitUntilExit()
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
    }

    /// `archivegate serve --help` shows the server's own options, through the hand-over.
    @Test func serveHelpListsTheServersOptions() throws {
        let result = try CLIRunner.run(["serve", "--help"])
        #expect(result.status == 0)
        for option in ["--config", "--host", "--port", "--extra-tenants", "--log-level"] {
            #expect(result.stdout.contains(option), "\(option) missing from: \(result.stdout)")
        }
        #expect(result.stdout.contains("archivegate serve"))
    }

    /// Without the server beside it, `archivegate serve` says so in one line and exits 69
    /// (EX_UNAVAILABLE); every other command still runs.
    @Test func serveWithoutTheServerProgramFailsWithOneLineAndExit69() throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lone = directory.appendingPathComponent("archivegate")
        try FileManager.default.copyItem(at: CLIRunner.binary.resolvingSymlinksInPath(), to: lone)

        let process = Process()
        process.executableURL = lone
        process.arguments = ["serve", "--port", "1"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationStatus == 69)
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1, "expected one line, got: \(stderr)")
        #expect(stderr.hasPrefix("archivegate: serve: the HTTP server, archivegate-server, is not installed next to archivegate"))
        #expect(stderr.contains(directory.appendingPathComponent("archivegate-server").path))

        let version = Process()
        version.executableURL = lone
        version.arguments = ["hash-key", "x"]
        version.standardOutput = FileHandle.nullDevice
        try version.run()
        version.waitUntilExit()
        #expect(version.terminationStatus == 0)
    }
}
