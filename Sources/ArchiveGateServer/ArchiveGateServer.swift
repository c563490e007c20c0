import Hummingbird
import Logging
import ServiceLifecycle

/// Runs the service until SIGTERM or SIGINT. On either, the listener closes at once, requests
/// already accepted run to completion, and the call returns normally (the process exits 0).
public func runServer(configuration: ServerConfiguration, logger: Logger) async throws {
    let app = try buildApplication(configuration: configuration, logger: logger)
    let services = ServiceGroup(configuration: .init(
        services: [app],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger
    ))
    try await services.run()
}
