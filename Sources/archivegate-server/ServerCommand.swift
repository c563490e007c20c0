import ArchiveGateServer
import ArgumentParser
import Foundation
import Logging

/// `archivegate-server`, the HTTP service, which `archivegate serve` execs with its own arguments
/// (so users type `archivegate serve …`; running `archivegate-server …` directly is the same). Flags
/// override `ARCHIVEGATE_*` variables, which override `<config>/server.json`, which overrides the
/// defaults (127.0.0.1:8080). SIGTERM drains, exit 0.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        // Help and usage errors name the command users run.
        commandName: "archivegate serve",
        abstract: "Serve the HTTP API (POST /v1/validate, /v1/convert; /healthz, /readyz, /metrics, /openapi.yaml)."
    )

    @Option(name: .long, help: "Configuration folder holding server.json and tenants/ (default: $ARCHIVEGATE_CONFIG_DIR, else ./config if present, else built-in defaults).")
    var config: String?

    @Option(name: .long, help: "Interface to bind (overrides http.host).")
    var host: String?

    @Option(name: .long, help: "TCP port (overrides http.port).")
    var port: Int?

    @Option(name: .long, help: "A further folder of tenant files, loaded after tenants.directory (repeatable; scripts/serve adds the demo tenant this way).")
    var extraTenants: [String] = []

    @Option(name: .long, help: "trace, debug, info, notice, warning, error or critical (overrides log.level).")
    var logLevel: String?

    func run() async throws {
        var overrides: [String: String] = [:]
        if let host { overrides["http.host"] = host }
        if let port { overrides["http.port"] = String(port) }
        if let logLevel { overrides["log.level"] = logLevel }
        let environment = ProcessInfo.processInfo.environment
        var configuration = try await ServerConfiguration.load(
            configDirectory: config ?? Self.defaultConfigDirectory(environment), overrides: overrides, environment: environment)
        configuration.extraTenantsDirectories = extraTenants

        // StreamLogHandler's lines, written to stderr in batches off the request path.
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler(label: label, stream: BatchedStandardErrorStream())
            handler.logLevel = configuration.logLevel
            return handler
        }
        // Before exit, and before ArgumentParser prints a startup error after the lines.
        defer { BatchedStandardError.shared.flush() }
        var logger = Logger(label: "archivegate")
        logger.logLevel = configuration.logLevel
        try await runServer(configuration: configuration, logger: logger)
    }

    private static func defaultConfigDirectory(_ environment: [String: String]) -> String? {
        if let directory = environment["ARCHIVEGATE_CONFIG_DIR"], !directory.isEmpty { return directory }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: "config", isDirectory: &isDirectory) && isDirectory.boolValue ? "config" : nil
    }
}
