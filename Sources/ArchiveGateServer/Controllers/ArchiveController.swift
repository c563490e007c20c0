import ArchiveGateCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOPosix

/// `POST /v1/validate` and `POST /v1/convert`: the tenant's policy applied to an uploaded archive.
struct ArchiveController {
    typealias Context = ArchiveRequestContext
    let metrics: ServerMetrics

    func register(on group: RouterGroup<Context>) {
        group.post("validate", use: validate)
        group.post("convert", use: convert)
    }

    /// 200 with the report; `valid: false` is still a 200: the request succeeded, the archive did not.
    @Sendable func validate(_ request: Request, context: Context) async throws -> Response {
        let tenant = try requireTenant(context)
        let bytes = try await ArchiveBody.read(request, tenant: tenant)
        record(bytes: bytes.count, tenant: tenant, context: context)
        let inspector = try Self.inspector(tenant, request)
        let report = try await DecodeExecutor.run(bytes: bytes.count) { try inspector.validate(bytes) }
        record(report, tenant: tenant, context: context)
        return try json(status: .ok, body: JSONEncoder.sorted.encode(report))
    }

    /// 200 with the JSON (plain or typed); 422 `policy.rejected` with the violations when the policy
    /// rejects. A `redact` policy answers 200 with the violating subtrees nulled and
    /// `X-ArchiveGate-Violations` > 0.
    @Sendable func convert(_ request: Request, context: Context) async throws -> Response {
        let tenant = try requireTenant(context)
        let modeName = request.uri.queryParameters["mode"].map(String.init) ?? "plain"
        guard let mode = OutputMode(rawValue: modeName) else {
            throw ProblemError.invalidRequest("mode is 'plain' or 'typed', not '\(modeName)'.")
        }
        let bytes = try await ArchiveBody.read(request, tenant: tenant)
        record(bytes: bytes.count, tenant: tenant, context: context)
        let inspector = try Self.inspector(tenant, request)
        let inspection = try await DecodeExecutor.run(bytes: bytes.count) { try inspector.convert(bytes, mode: mode) }
        record(inspection.report, tenant: tenant, context: context)
        guard let output = inspection.json else {
            throw ProblemError.policyRejected(inspection.report)
        }
        var response = json(status: .ok, body: output)
        response.headers[.archiveGateViolations] = String(inspection.report.violations.count)
        return response
    }

    private func requireTenant(_ context: Context) throws -> Tenant {
        // AuthenticationMiddleware guards the group; reaching here without a tenant is a wiring bug.
        guard let tenant = context.tenant else { throw ProblemError.unauthorized(presentedKey: false) }
        return tenant
    }

    private func record(bytes: Int, tenant: Tenant, context: Context) {
        metrics.recordArchive(bytes: bytes, tenant: tenant.id)
        context.trace.update { $0.archiveBytes = bytes }
    }

    private func record(_ report: ValidationReport, tenant: Tenant, context: Context) {
        let codes = report.violations.map(\.code)
        metrics.recordViolations(codes, tenant: tenant.id)
        let findingCodes = report.findings.map(\.code)
        metrics.recordFindings(findingCodes, tenant: tenant.id)
        context.trace.update {
            $0.violationCodes = Array(Set(codes)).sorted()
            $0.findingCodes = Array(Set(findingCodes)).sorted()
        }
    }

    /// The tenant's inspector, decoding nested archives when the request says `?nested=true`.
    private static func inspector(_ tenant: Tenant, _ request: Request) throws -> ArchiveInspector {
        var inspector = tenant.inspector
        switch request.uri.queryParameters["nested"].map(String.init) {
        case nil, "false": break
        case "true": inspector.decodesNestedArchives = true
        case let other?: throw ProblemError.invalidRequest("nested is 'true' or 'false', not '\(other)'.")
        }
        return inspector
    }

    private func json(status: HTTPResponse.Status, body: some Sequence<UInt8>) -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Where a decode runs. Hummingbird runs route handlers as tasks on Swift's global concurrent
/// executor, whose cooperative pool has one thread per core (NIO's event loops are separate
/// threads). A decode is synchronous CPU work that cannot yield, so a large one holds a pool thread
/// for milliseconds; with two cores, two large uploads stall every other request's task (small
/// validates, body reads, responses) until they finish. Archives of `offloadThreshold` bytes or
/// more therefore run on a dedicated NIOThreadPool (one thread per core): the cooperative threads
/// stay free and the kernel shares the cores between both. Small archives decode in place — the
/// hop would cost more than the work. (scripts/load's mixed case measures the difference.)
enum DecodeExecutor {
    /// 64 KiB: about a millisecond of decoding; below it, the thread hop is not worth it.
    static let offloadThreshold = 64 * 1024

    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()

    static func run<T: Sendable>(bytes: Int, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        guard bytes >= offloadThreshold else { return try work() }
        return try await pool.runIfActive(work)
    }
}

extension HTTPField.Name {
    /// How many violations a converted archive had (non-zero only under a `redact` policy).
    static let archiveGateViolations = HTTPField.Name("X-ArchiveGate-Violations")!
}
