import Foundation
import Hummingbird

/// Unauthenticated operational endpoints: `/healthz`, `/readyz`, `/metrics`, `/openapi.yaml`.
struct OperationsController {
    typealias Context = ArchiveRequestContext
    let metrics: ServerMetrics
    let tenantCount: Int

    func register(on router: Router<Context>) {
        router.get("healthz") { _, _ in
            Self.json(#"{"status":"ok"}"#)
        }
        // Ready once the process has loaded its configuration and tenants (it is built only then).
        router.get("readyz") { _, _ in
            Self.json(#"{"status":"ready","tenants":\#(tenantCount)}"#)
        }
        router.get("metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: metrics.render())))
        }
        router.get("openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"],
                     body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
        }
    }

    private static func json(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
