import ArchiveGateCore
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
    /// Methods served by each path, so a known path with another method is a 405 with `Allow`
    /// (Hummingbird's router answers 404 for both). A `*` segment matches any one segment.
    let methodsByPath: [String: [HTTPRequest.Method]]

    static func methods(forPath path: String, in table: [String: [HTTPRequest.Method]]) -> [HTTPRequest.Method]? {
        if let methods = table[path] { return methods }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (pattern, methods) in table where pattern.contains("*") {
            let patternSegments = pattern.split(separator: "/", omittingEmptySubsequences: false)
            guard patternSegments.count == segments.count else { continue }
            if zip(patternSegments, segments).allSatisfy({ $0 == "*" ? !$1.isEmpty : $0 == $1 }) { return methods }
        }
        return nil
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && context.endpointPath == "NotFound" {
            var problem = ProblemError.notFound
            if let methods = Self.methods(forPath: request.uri.path, in: methodsByPath) {
                problem = ProblemError(.methodNotAllowed, code: "request.method_not_allowed", title: "Method Not Allowed",
                                       detail: "\(request.uri.path) supports \(methods.map(\.rawValue).joined(separator: ", ")).",
                                       headers: [.allow: methods.map(\.rawValue).joined(separator: ", ")])
            }
            context.trace.update { $0.problemCode = problem.code }
            return problem.response(requestId: context.requestId)
        } catch {
            let problem = Self.problemError(for: error, logger: context.logger)
            context.trace.update { $0.problemCode = problem.code }
            return problem.response(requestId: context.requestId)
        }
    }

    static func problemError(for error: any Error, logger: Logger) -> ProblemError {
        switch error {
        case let problem as ProblemError:
            return problem
        case let archiveError as ArchiveGateError:
            return archiveError.problemError
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
