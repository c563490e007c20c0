import Foundation

/// A task executor with threads of its own, for the servers (and clients) tests run in-process.
///
/// Why: Swift's cooperative pool has one thread per core — two on the CI machine — and the test
/// process shares it with every suite of the run. Synchronous tests (a CLI test blocked in
/// `waitUntilExit` on its child, a corpus test decoding for seconds) hold those threads; a server
/// whose request tasks wait for one answers seconds late, and timed assertions about it failed
/// (issue 31: refusals, `100 Continue`, fetch cancellation, a 3 s Postgres timeout seen at 32 s).
/// Production servers own their process's pool; in tests, `withTaskExecutorPreference(.tests)`
/// gives a server the same independence: its child tasks (Hummingbird's connection tasks, route
/// handlers, default actors they call) run here whatever the rest of the process is doing.
public final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
    /// Shared by every test server of the process: enough threads that one slow handler does not
    /// hold up another server's.
    public static let tests = DedicatedExecutor(threads: 4, name: "archivegate-tests")

    private let condition = NSCondition()
    /// Jobs waiting, oldest first (`next` is the index of the oldest; compacted when drained).
    private var jobs: [UnownedJob] = []
    private var next = 0

    public init(threads: Int, name: String) {
        for index in 0 ..< max(1, threads) {
            let thread = Thread { self.work() }  // the threads keep their executor alive
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while next == jobs.count { condition.wait() }
            let job = jobs[next]
            next += 1
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

extension TaskExecutor where Self == DedicatedExecutor {
    /// `DedicatedExecutor.tests`.
    public static var tests: DedicatedExecutor { DedicatedExecutor.tests }
}
