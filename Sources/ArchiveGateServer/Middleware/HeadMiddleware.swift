import HTTPTypes
import Hummingbird

/// `HEAD` on any `GET` resource (RFC 9110 §9.3.2): the request is served as a `GET`, and the answer
/// keeps its status and headers, `Content-Length` included, without the body. Everything below
/// (authentication, rate limits, problems, 405 for paths without `GET`) treats it as the `GET` it
/// stands for; the access log above still records `HEAD`.
struct HeadMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .head else { return try await next(request, context) }
        var head = request.head
        head.method = .get
        let response = try await next(Request(head: head, body: request.body), context)
        var headers = response.headers
        if headers[.contentLength] == nil, let length = response.body.contentLength {
            headers[.contentLength] = String(length)
        }
        return Response(status: response.status, headers: headers, body: ResponseBody())
    }
}
