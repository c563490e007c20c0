import ArchiveGateStore
import Hummingbird
import Logging
import ServiceLifecycle

/// Runs the service until SIGTERM or SIGINT. On either, the listener closes at once, requests
/// already accepted run to completion, and the call returns normally (the process exits 0).
///
/// With `store.enabled` the result store (`store.kind`: SQLite or PostgreSQL) is opened (and migrated) first — a store that
/// cannot be opened stops the start — and closed only after the last request finished.
public func runServer(configuration: ServerConfiguration, logger: Logger) async throws {
    var store: (any ResultStore)?
    if configuration.store.enabled {
        var storeLogger = logger
        storeLogger[metadataKey: "component"] = "store"
        switch configuration.store.kind {
        case .sqlite:
            store = try await SQLiteResultStore.open(configuration: .init(
                path: configuration.store.path,
                retention: configuration.store.retention,
                busyTimeout: configuration.store.busyTimeout,
                maximumPageSize: configuration.store.maxPageSize
            ), logger: storeLogger)
        case .postgres:
            store = try await PostgresResultStore.open(configuration: configuration.store.postgres, logger: storeLogger)
        }
    }
    do {
        let app = try buildApplication(configuration: configuration, logger: logger, store: store)
        let services = ServiceGroup(configuration: .init(
            services: [app],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        try await services.run()
    } catch {
        await store?.close()
        throw error
    }
    await store?.close()
}
