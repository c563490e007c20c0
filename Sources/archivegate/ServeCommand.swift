import ArgumentParser
import Foundation

/// `archivegate serve`: hands the process over to `archivegate-server`, the HTTP service, installed
/// next to this binary. The server is a separate program so that every other command starts without
/// loading it: linking NIO, Hummingbird, swift-crypto and PostgresNIO into the CLI made each call's
/// start-up scan their protocol conformances and relocate a binary several times larger
/// (docs/BENCHMARKS.md, "Start-up"). The hand-over is an exec, so the process id, arguments,
/// environment, working directory and open descriptors stay the server's: SIGTERM to the pid that
/// was started stops the server, and its exit code is the command's.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP API (POST /v1/validate, /v1/convert; /healthz, /readyz, /metrics, /openapi.yaml).",
        discussion: """
        Runs \(ServerHandOver.programName), installed next to archivegate, with the arguments that follow \
        `serve`, unparsed: `archivegate serve --help` prints the server's own help (--config, --host, --port, \
        --extra-tenants, --log-level). Exit code 69 when \(ServerHandOver.programName) is missing.
        """
    )

    @Argument(parsing: .captureForPassthrough, help: "The server's options, passed on unchanged.")
    var arguments: [String] = []

    func run() throws {
        Self.handOver(arguments)
    }

    /// Execs the server with `arguments`; on failure prints the one line and exits with its code.
    static func handOver(_ arguments: [String]) -> Never {
        let failure = ServerHandOver.exec(arguments: arguments)
        Terminal.error(failure.message)
        Foundation.exit(failure.exitCode)
    }
}
