import Foundation

/// Runs blocking or long CPU-bound work on a thread of its own. The cooperative pool has one thread
/// per core (two on this machine): blocking one could starve the very server a test talks to, and
/// holding both stalls every other test of the parallel run, timed ones included. Record issues
/// after it returns, on the test's task: the thread has no current test.
public func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
