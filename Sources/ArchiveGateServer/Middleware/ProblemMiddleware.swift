import ArchiveGateCore
import ArchiveGateInflate
import ArchiveGateStore
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Turns every error below it into an RFC 9457 `application/problem+json` response, so no handler
/// has to: our `ProblemError`s, the core's `ArchiveGateError`s, Hummingbird's `HTTPError` (the
/// router's 404 among them), NIO's body-limit error, and anything unexpected (500, logged with
/// the request id; the client learns nothing about internals).
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
                problem = ProblemError(.methodNotAllowed, code: "request.method_not_allowed", title: "Method Not Allowed",
                                       detail: "\(request.uri.path) supports \(methods.map(\.rawValue).joined(separator: ", ")).",
                                       headers: [.allow: methods.map(\.rawValue).joined(separator: ", ")])
            }
            context.trace.update { $0.problemCode = problem.code }
            return problem.response(requestId: context.requestId)
        } catch {
            let problem = Self.problemError(for: error, logger: context.logger)
            context.trace.update { $0.problemCode = problem.code }
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

    static func problemError(for error: any Error, logger: Logger) -> ProblemError {
        switch error {
        case let problem as ProblemError:
            return problem
        case let archiveError as ArchiveGateError:
            return archiveError.problemError
        case let inflateError as InflateError:
            return inflateError.problemError
        case let failure as StoreFailure:
            if failure.error.code != .invalidCursor {
                logger.error("result store failed", metadata: ["error": "\(failure.error)"])
            }
            return .storeFailed(failure.error)
        case is NIOTooManyBytesError:
            return ProblemError(.contentTooLarge, code: "request.body_too_large", title: "Content Too Large",
                                detail: "The request body exceeds the tenant's limit.")
        case let httpError as HTTPError:
            return problemError(for: httpError)
        default:
            logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            return .internalError
        }
    }

    private static func problemError(for error: HTTPError) -> ProblemError {
        switch error.status {
        case .notFound:
            return .notFound
        case .methodNotAllowed:
            return ProblemError(.methodNotAllowed, code: "request.method_not_allowed", title: "Method Not Allowed",
                                detail: "The resource does not support this method.", headers: error.headers)
        default:
            // Our own code never throws HTTPError; these come from Hummingbird (e.g. a malformed
            // request). Their status is kept, and server-side ones stay opaque.
            let isServer = error.status.kind == .serverError
            return ProblemError(error.status, code: isServer ? "server.internal" : "request.invalid",
                                title: error.status.reasonPhrase,
                                detail: isServer ? "The server failed." : (error.body ?? error.status.reasonPhrase))
        }
    }
}
