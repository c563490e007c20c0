import Hummingbird

/// Gives every `/v1` POST (the requests that carry an archive or fetch one) a `MemoryLease`, and
/// returns it once the response has been written to the socket (`ResponseWrittenHandler`) — not
/// when the handler returns nor when the body is handed to NIO, since the response's bytes are
/// held until the client has read them. Refusals (503 `server.busy`, 429
/// `tenant.busy`) happen here, before the body is read. Sits after authentication and the rate
/// limit, so an unknown key or a throttled tenant cannot take a slot.
struct MemoryBudgetMiddleware: RouterMiddleware {
    typealias Context = ArchiveRequestContext
    /// Answers up to this size are written in one batch: Linux's smallest TCP send buffer
    /// (`tcp_wmem` minimum, 4 KiB), so the socket takes the whole answer when it is handed over
    /// and the end starts no idle timer while bytes still wait.
    static let batchedBodyBytes = 4096
    let budget: MemoryBudget
    let amplificationCap: AmplificationCap
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post, let tenant = context.tenant else { return try await next(request, context) }
        let lease: MemoryLease
        do {
            lease = try budget.admit(tenant: tenant.id)
        } catch {
            metrics.recordBudgetRefusal(error.code.rawValue, tenant: tenant.id)
            throw error
        }
        var context = context
        context.memoryLease = lease
        context.amplificationCap = amplificationCap
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as ProblemError where error.code == .serverBusy || error.code == .tenantBusy {
            lease.release()
            metrics.recordBudgetRefusal(error.code.rawValue, tenant: tenant.id)
            throw error
        } catch {
            lease.release()
            throw error
        }
        // Released when the bytes have left NIO's outbound queue (ResponseWrittenHandler), not
        // when the writer has handed them over; registered before Hummingbird writes the response.
        context.channel.whenResponseWritten { lease.release() }
        let body = response.body
        guard let length = body.contentLength, length <= Self.batchedBodyBytes else {
            // A closure body: Hummingbird then writes head, body and end one after the other, and
            // the end waits behind the writer's backpressure (the send timeout's domain). Handed
            // over at once, the end would start the connection's idle timer while a large answer
            // is still queued unsent, and a slow reader would be cut by the idle timeout.
            response.body = ResponseBody(contentLength: body.contentLength) { writer in try await body.write(writer) }
            return response
        }
        // A small answer keeps its one buffer: Hummingbird hands head, body and end to the loop in
        // one write (one loop task, one flush, one `writev`) instead of three.
        return response
    }
}
