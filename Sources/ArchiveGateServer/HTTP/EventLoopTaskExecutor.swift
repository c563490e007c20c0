import NIOCore

/// A task executor that runs jobs on one NIO event loop.
///
/// Hummingbird runs each connection's handling (request parts in, route handler, response parts
/// out) as one Swift task. On the global executor that task runs on Swift's cooperative pool, while
/// the connection's I/O runs on its event loop, so every request hops threads at least twice: the
/// request head is read on the loop and resumes the task on a pool thread; the response is written
/// from the pool and handed back to the loop. `ConformingHTTP1Channel` prefers the connection's
/// own event loop for its task instead: reads resume the task on the same thread, and writes from
/// the loop go straight into the pipeline (NIO's async channel writes inline when on its loop).
///
/// Work that must not hold an event loop does not run here: decodes of `DecodeExecutor.offloadThreshold`
/// or more go to `DecodeExecutor.pool`, and unstructured tasks (`cancellingOnDisconnect`) do not
/// inherit a task executor preference.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // Never inline, even on the loop: `enqueue` must not run the job before returning.
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
