import ArchiveGateCore

/// The JSON of an archive may be at most `factor` times the archive (at least
/// `minimumAllowance`), besides the policy's absolute `maxOutputBytes`: a 1 KB gzip of a 1 MiB
/// string referenced 200 times is refused once the renderer passes the allowance, instead of
/// growing a 200 MiB answer.
struct AmplificationCap: Sendable, Hashable {
    /// Small archives may always render this much (shared references in a small archive are normal).
    static let minimumAllowance = 1 << 20
    /// `memory.amplificationFactor`.
    var factor: Int

    func allowance(archiveBytes: Int) -> Int {
        let (product, overflow) = archiveBytes.multipliedReportingOverflow(by: factor)
        return overflow ? .max : max(Self.minimumAllowance, product)
    }
}

/// Decoding under the budget. What a decode holds is estimated before it starts and reserved, so a
/// request the budget cannot carry is refused before it costs anything:
///
///     decode   `decodeBytesPerArchiveByte` × the archive (object table, strings, report)
///     output   the output cap (the smaller of the policy's maxOutputBytes and the amplification
///              allowance) while rendering; then exactly the JSON's size, held until it is sent
extension MemoryLease {
    /// Estimated decode working set per archive byte (the parsed object table and its strings).
    static let decodeBytesPerArchiveByte = 2

    /// The tenant's report for `bytes`.
    func validate(_ bytes: [UInt8], with inspector: ArchiveInspector) async throws -> ValidationReport {
        let estimate = bytes.count * Self.decodeBytesPerArchiveByte
        try reserve(estimate)
        defer { shrink(by: estimate) }
        return try await DecodeExecutor.run(bytes: bytes.count) { try inspector.validate(bytes) }
    }

    /// The tenant's report and JSON for `bytes`, the JSON capped by `cap` too; over it →
    /// 422 `output.amplification_exceeded`. The JSON's bytes stay reserved until the lease is released.
    func convert(_ bytes: [UInt8], mode: OutputMode, with inspector: ArchiveInspector, cap: AmplificationCap) async throws -> Inspection {
        var inspector = inspector
        let absolute = inspector.policy.limits.maxOutputBytes
        let outputLimit = min(absolute, cap.allowance(archiveBytes: bytes.count))
        inspector.policy.limits.maxOutputBytes = outputLimit
        let estimate = bytes.count * Self.decodeBytesPerArchiveByte + outputLimit
        try reserve(estimate)
        do {
            var inspection = try await DecodeExecutor.run(bytes: bytes.count) { [inspector] in try inspector.convert(bytes, mode: mode) }
            shrink(by: estimate - (inspection.json?.count ?? 0))
            // The report states the policy's limits, as /v1/validate does; the amplification cap
            // is the server's and speaks through its own problem.
            inspection.report.limits.maxOutputBytes = absolute
            return inspection
        } catch let error as ArchiveGateError where error.code == ArchiveGateError.Code(.outputLimitExceeded) && outputLimit < absolute
            && error.message.hasSuffix("exceed \(outputLimit) bytes") {
            shrink(by: estimate)
            throw ProblemError.amplificationExceeded(limit: outputLimit, archiveBytes: bytes.count, factor: cap.factor)
        } catch {
            shrink(by: estimate)
            throw error
        }
    }
}

extension MemoryLease {
    /// The archive ArchiveGate writes for `bytes` under the tenant's policy (nil when the policy
    /// rejects it), decoded under the budget like ``convert(_:mode:with:cap:)``: the output is
    /// bounded by the policy's `maxOutputBytes`, and the reservation counts it at the archive's
    /// size (each object is written once, so a sanitized archive does not amplify the way JSON of
    /// shared references does). The archive's bytes stay reserved until the lease is released.
    func sanitize(_ bytes: [UInt8], with inspector: ArchiveInspector) async throws -> [UInt8]? {
        let outputLimit = inspector.policy.limits.maxOutputBytes
        let estimate = bytes.count * Self.decodeBytesPerArchiveByte + min(outputLimit, bytes.count)
        try reserve(estimate)
        do {
            let sanitizer = ArchiveSanitizer(inspector: inspector)
            let result = try await DecodeExecutor.run(bytes: bytes.count) { try sanitizer.sanitize(bytes) }
            shrink(by: max(0, estimate - (result.archive?.count ?? 0)))
            return result.archive
        } catch {
            shrink(by: estimate)
            throw error
        }
    }
}
