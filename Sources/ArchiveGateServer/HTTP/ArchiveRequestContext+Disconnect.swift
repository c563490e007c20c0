import Hummingbird
import NIOCore

extension ArchiveRequestContext {
    /// Runs `work` in a task of its own that is cancelled when the client goes away first
    /// (`ClientDisconnectHandler`) or this request's task is cancelled. Work that honours
    /// cancellation (`ArchiveFetcher` aborts its libcurl transfer) then stops within its own
    /// reaction time rather than running to its timeout for nobody.
    func cancellingOnDisconnect<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
        let channel = self.channel
        let disconnected = try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.handler(type: ClientDisconnectHandler.self).disconnected
        }.get()
        let task = Task { await work() }
        disconnected?.whenSuccess { task.cancel() }
        return await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
    }
}
