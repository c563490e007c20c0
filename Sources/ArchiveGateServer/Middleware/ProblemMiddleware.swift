import HTTPTypes
import Hummingbird
import Logging

/// Turns every error below it into an RFC 9457 `application/problem+json` response, so no handler
/// has to. It only renders: each error type says its own problem (`ProblemRepresentable`, mapped in
/// `Problems/X+HTTPResponseError.swift`); anything unexpected is a 500, logged with the request id
/// (the client learns nothing about internals).
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = ArchiveRequestContext
    /// Methods served by each path, read from the router once every route is registered.
    let routes: RouteMethodTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && context.endpointPath == "NotFound" {
            var problem = ProblemError.notFound
            if let methods = routes.methods(forPath: request.uri.path) {
                problem = .methodNotAllowed(path: request.uri.path, methods: methods.map(\.rawValue))
            }
            context.trace.update { $0.problemCode = problem.code.rawValue }
            return problem.response(requestId: context.requestId)
        } catch {
            let problem = Self.problemError(for: error, logger: context.logger)
            context.trace.update { $0.problemCode = problem.code.rawValue }
            var response = problem.response(requestId: context.requestId)
            if Self.closesConnection(problem.status, request: request) {
                response.headers[.connection] = "close"
            }
            return response
        }
    }

    /// Statuses that refuse a request before (or while) its body is read. When the request
    /// announced a body, the answer closes the connection (`EarlyCloseHandler`): reading the rest
    /// of a body nobody will use could hold the connection until the body timeout.
    static let earlyRefusals: Set<HTTPResponse.Status> = [.unauthorized, .contentTooLarge, .unsupportedMediaType]

    static func closesConnection(_ status: HTTPResponse.Status, request: Request) -> Bool {
        guard earlyRefusals.contains(status) else { return false }
        if request.headers[.transferEncoding] != nil { return true }
        return request.headers[.contentLength].flatMap { Int($0) }.map { $0 > 0 } ?? false
    }

    /// The error's own problem (`X+HTTPResponseError.swift`); anything that has none is a 500
    /// whose cause goes to the log only.
    static func problemError(for error: any Error, logger: Logger) -> ProblemError {
        guard let known = error as? any ProblemRepresentable else {
            logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            return .internalError
        }
        if known.logsCause {
            logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
        }
        return known.problemError
    }
}
