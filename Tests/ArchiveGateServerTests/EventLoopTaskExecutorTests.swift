@testable import ArchiveGateServer
import NIOCore
import NIOPosix
import Testing

/// A task preferring an `EventLoopTaskExecutor` runs on that loop's thread, before and after it
/// awaits work completed elsewhere, and so do its child tasks.
@Suite struct EventLoopTaskExecutorTests {
    @Test func aTaskStaysOnItsLoopAcrossSuspensions() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let loops = Array(group.makeIterator())
        let (home, elsewhere) = (loops[0], loops[1])
        let observed = try await withTaskExecutorPreference(EventLoopTaskExecutor(home)) {
            var onHome = [home.inEventLoop]
            // Completed on the other loop's thread: the task must resume on its own loop.
            let answer = try await elsewhere.scheduleTask(in: .milliseconds(5)) { 42 }.futureResult.get()
            onHome.append(home.inEventLoop)
            try await Task.sleep(for: .milliseconds(5))
            onHome.append(home.inEventLoop)
            let children = await withTaskGroup(of: Bool.self) { children in
                for _ in 0..<4 { children.addTask { home.inEventLoop } }
                return await children.reduce(into: [Bool]()) { $0.append($1) }
            }
            return (answer, onHome, children)
        }
        #expect(observed.0 == 42)
        #expect(observed.1 == [true, true, true])
        #expect(observed.2 == [true, true, true, true])
        #expect(!home.inEventLoop)
        try await group.shutdownGracefully()
    }
}
