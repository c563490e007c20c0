import Hummingbird

/// Gives every `/v1` POST (the requests that carry an archive or fetch one) a `MemoryLease`, and
/// returns it once the response has been written to the socket (`ResponseWrittenHandler`) — not
/// when the handler returns nor when the body is handed to NIO, since the response's bytes are
/// held until the client has read them. Refusals (503 `server.busy`, 429
/// `tenant.busy`) happen here, before the body is read. Sits after authentication and the rate
/// limit, so an unknown key or a throttled tenant cannot take a slot.
struct MemoryBudgetMiddleware: RouterMiddleware {
    typealias Context = ArchiveRequestContext
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
        let body = response.body
        let channel = context.channel
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            // Released when the bytes have left NIO's outbound queue (ResponseWrittenHandler),
            // not when the writer has handed them over.
            let releasedWhenWritten = await channel.whenResponseWritten { lease.release() }
            do {
                try await body.write(writer)
            } catch {
                lease.release()
                throw error
            }
            if !releasedWhenWritten { lease.release() }
        }
        return response
    }
}
