import ArchiveGateCore
import ArchiveGateStore
import Foundation
import Hummingbird

/// Unauthenticated operational endpoints: `/healthz`, `/version`, `/readyz`, `/metrics`, `/openapi.yaml`.
struct OperationsController {
    typealias Context = ArchiveRequestContext
    let metrics: ServerMetrics
    let tenantCount: Int
    let store: (any ResultStore)?
    /// The memory budget's caps, shown by `/readyz` with what they allow (`DecodeEstimate.summary`).
    let memory: MemoryBudget.Limits

    func register(on router: Router<Context>) {
        let memorySummary = DecodeEstimate.summary(memory)
        // The version is `archivegate --version`'s string (ArchiveGateVersion, one place), so a
        // deployment can be checked without credentials.
        let version = ArchiveGateVersion.string
        router.get("healthz") { _, _ in
            Self.json(#"{"status":"ok","version":"\#(version)"}"#)
        }
        router.get("version") { _, _ in
            Self.json(#"{"version":"\#(version)"}"#)
        }
        // Ready once the process has loaded its configuration and tenants (it is built only then)
        // and, when it has one, its result store answers.
        router.get("readyz") { _, context in
            var storeState = "disabled"
            if let store {
                do {
                    try await store.healthCheck()
                    storeState = "ok"
                } catch {
                    context.logger.error("readiness: result store failed", metadata: ["error": "\(error)"])
                    // The code only (unavailable, busy, storageFailure…): the message may name hosts.
                    let reason = (error as? ResultStoreError)?.code.description ?? "unexpected"
                    return Self.json(#"{"memory":\#(memorySummary),"reason":"store \#(reason)","status":"unavailable","store":"failing","tenants":\#(tenantCount)}"#,
                                     status: .serviceUnavailable)
                }
            }
            return Self.json(#"{"memory":\#(memorySummary),"status":"ready","store":"\#(storeState)","tenants":\#(tenantCount)}"#)
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

    private static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
