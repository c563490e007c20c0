import NIOCore
import NIOPosix

/// Where a decode runs. Hummingbird runs route handlers as tasks on Swift's global concurrent
/// executor, whose cooperative pool has one thread per core (NIO's event loops are separate
/// threads). A decode is synchronous CPU work that cannot yield, so a large one holds a pool thread
/// for milliseconds; with two cores, two large uploads stall every other request's task (small
/// validates, body reads, responses) until they finish. Archives of `offloadThreshold` bytes or
/// more therefore run on a dedicated NIOThreadPool (one thread per core): the cooperative threads
/// stay free and the kernel shares the cores between both. Small archives decode in place — the
/// hop would cost more than the work. (scripts/load's mixed case measures the difference.)
enum DecodeExecutor {
    /// 64 KiB: about a millisecond of decoding; below it, the thread hop is not worth it.
    static let offloadThreshold = 64 * 1024

    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()

    static func run<T: Sendable>(bytes: Int, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        guard bytes >= offloadThreshold else { return try work() }
        return try await pool.runIfActive(work)
    }
}
