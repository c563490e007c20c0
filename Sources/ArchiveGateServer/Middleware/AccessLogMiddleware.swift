import Hummingbird
import Logging

/// One structured log line and the HTTP metrics per request. Sits inside `RequestIdMiddleware`
/// and outside `ProblemMiddleware`, so it sees every final status and the request id.
/// Logs the tenant id, never the key; sizes, never the body.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = ArchiveRequestContext
    let logger: Logger
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let duration = start.duration(to: .now)
        // The route template (`/v1/convert`), not the raw path, keeps metric labels bounded.
        let route = context.endpointPath ?? "unmatched"
        let facts = context.trace.snapshot
        metrics.recordRequest(method: request.method.rawValue, route: route, status: response.status.code, duration: duration)

        var metadata: Logger.Metadata = [
            "request_id": .string(context.requestId),
            "method": .string(request.method.rawValue),
            "route": .string(route),
            "status": .stringConvertible(response.status.code),
            "duration_ms": .string(Self.milliseconds(duration)),
            "tenant": .string(facts.tenant ?? "-"),
        ]
        if let length = request.headers[.contentLength] { metadata["bytes_in"] = .string(length) }
        if let bytes = facts.archiveBytes { metadata["archive_bytes"] = .stringConvertible(bytes) }
        if let length = response.body.contentLength { metadata["bytes_out"] = .stringConvertible(length) }
        if !facts.violationCodes.isEmpty { metadata["violations"] = .string(facts.violationCodes.joined(separator: ",")) }
        if !facts.findingCodes.isEmpty { metadata["findings"] = .string(facts.findingCodes.joined(separator: ",")) }
        if let code = facts.problemCode { metadata["problem"] = .string(code) }
        logger.info("request", metadata: metadata)
        return response
    }

    /// Milliseconds with three decimals.
    static func milliseconds(_ duration: Duration) -> String {
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        return String(micros / 1000) + "." + String(String(1000 + micros % 1000).dropFirst())
    }
}
