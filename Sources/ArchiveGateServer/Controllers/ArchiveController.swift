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
        let tenant = try context.requireTenant()
        let bytes = try await ArchiveBody.read(request, tenant: tenant, lease: context.lease)
        context.recordArchive(bytes: bytes.count, tenant: tenant, metrics: metrics)
        let inspector = try Context.inspector(tenant, request)
        let report = try await context.lease.validate(bytes, with: inspector)
        context.record(report, tenant: tenant, metrics: metrics)
        return try .json(.ok, JSONEncoder.sorted.encode(report))
    }

    /// 200 with the JSON (plain or typed); 422 `policy.rejected` with the violations when the policy
    /// rejects. A `redact` policy answers 200 with the violating subtrees nulled and
    /// `X-ArchiveGate-Violations` > 0.
    @Sendable func convert(_ request: Request, context: Context) async throws -> Response {
        let tenant = try context.requireTenant()
        let mode = try Context.outputMode(request)
        let bytes = try await ArchiveBody.read(request, tenant: tenant, lease: context.lease)
        context.recordArchive(bytes: bytes.count, tenant: tenant, metrics: metrics)
        let inspector = try Context.inspector(tenant, request)
        let inspection = try await context.lease.convert(bytes, mode: mode, with: inspector, cap: context.amplificationCap)
        context.record(inspection.report, tenant: tenant, metrics: metrics)
        guard let output = inspection.json else {
            throw ProblemError.policyRejected(inspection.report)
        }
        return .json(.ok, output, headers: [.archiveGateViolations: String(inspection.report.violations.count)])
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
