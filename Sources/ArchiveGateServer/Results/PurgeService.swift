import ArchiveGateStore
import Logging
import ServiceLifecycle

/// Deletes expired results at start-up and then every `interval`, until graceful shutdown.
/// Expired results are already invisible to every reader; this only reclaims their space.
struct PurgeService: Service {
    let store: any ResultStore
    let interval: Duration
    let metrics: ServerMetrics
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await purgeOnce()
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// One pass; a failure is logged and counted, and the next pass tries again.
    func purgeOnce() async {
        let start = ContinuousClock.now
        do {
            let purged = try await store.purgeExpired()
            metrics.recordStoreOperation("purge", duration: ContinuousClock.now - start)
            metrics.recordPurgedResults(purged)
            if purged > 0 { logger.info("purged expired results", metadata: ["count": "\(purged)"]) }
        } catch {
            // Shutting down cancels a pass in flight (the process is stopping, not failing): no error line.
            if Task.isCancelled { return }
            let code = (error as? ResultStoreError)?.code.description ?? "unexpected"
            metrics.recordStoreOperation("purge", duration: ContinuousClock.now - start, failureCode: code)
            logger.error("purging expired results failed", metadata: ["error": "\(error)"])
        }
    }
}
