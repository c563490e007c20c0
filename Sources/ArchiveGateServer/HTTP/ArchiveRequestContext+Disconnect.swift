import Hummingbird
import NIOCore

extension ArchiveRequestContext {
    /// Runs `work` in a child task that is cancelled when the client goes away first
    /// (`ClientDisconnectHandler`) or this request's task is cancelled. Work that honours
    /// cancellation (`ArchiveFetcher` aborts its libcurl transfer) then stops within its own
    /// reaction time rather than running to its timeout for nobody.
    ///
    /// Structured (a task group, not an unstructured `Task`): the work runs where the request runs,
    /// on the executor its task prefers. An unstructured task went to the global pool whatever the
    /// server ran on, and waited there for a thread when the pool was busy (issue 31's flaky fetch test).
    func cancellingOnDisconnect<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
        let channel = self.channel
        let disconnected = try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.handler(type: ClientDisconnectHandler.self).disconnected
        }.get()
        // An AsyncStream, because its iteration ends on cancellation: the watcher below ends when
        // the client leaves or when the work has finished first, never holding the request.
        let (left, leaving) = AsyncStream<Void>.makeStream()
        disconnected?.whenSuccess { leaving.finish() }
        // The work's child ends with `.success`; the watcher's with `.failure` (the client left).
        return await withTaskGroup(of: Result<T, CancellationError>.self) { group in
            group.addTask { .success(await work()) }
            group.addTask {
                for await _ in left {}
                return .failure(CancellationError())
            }
            for await outcome in group {
                switch outcome {
                case .success(let value):
                    group.cancelAll()  // ends the watcher
                    return value
                case .failure:
                    group.cancelAll()  // the work sees the cancellation and answers for it
                }
            }
            // A group hands out every child's result, and the work's child always ends with `.success`.
            preconditionFailure("cancellingOnDisconnect: the work ended without its outcome")
        }
    }
}
