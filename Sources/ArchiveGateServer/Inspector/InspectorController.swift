import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /` (the inspector page) and `GET /ui/<file>` (its CSS and JavaScript modules). No auth: the
/// page holds no data; it asks for the API key and sends it with each `/v1` call it makes.
///
/// Every answer carries a strict Content-Security-Policy (own origin only, no inline script or
/// style, no framing), `nosniff` and `no-referrer`. `ui.enabled: false` leaves these routes out
/// (404).
struct InspectorController {
    typealias Context = ArchiveRequestContext

    /// Scripts, styles and API calls from this origin only; nothing inline, no plugins, no `<base>`,
    /// no form posts, never inside a frame.
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy: contentSecurityPolicy,
        .xContentTypeOptions: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        // The files change only with the binary; revalidating is cheap and never serves a stale page.
        .cacheControl: "no-cache",
    ]

    func register(on router: Router<Context>) {
        router.get("/") { _, _ in Self.response(InspectorAssets.page) }
        router.get("ui/:file") { _, context in
            guard let asset = InspectorAssets.byName[try context.parameters.require("file")] else { throw ProblemError.notFound }
            return Self.response(asset)
        }
    }

    static func response(_ asset: InspectorAssets.Asset) -> Response {
        var headers = securityHeaders
        headers[.contentType] = asset.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }
}
