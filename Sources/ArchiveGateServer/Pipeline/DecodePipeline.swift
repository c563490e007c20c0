import ArchiveGateCore

/// The one way a request's archive (or typed JSON) becomes an answer: every endpoint that decodes
/// or writes — validate, convert, inspect, archives (store), fetch, sanitize, encode — calls one
/// of these, and nothing else calls the core's decoders. Each call
///
///  1. reserves its working set from the request's `MemoryLease` before it starts
///     (`DecodeEstimate`): over the budget → 503 `server.busy`, over the tenant's share → 429;
///  2. runs on the one executor (`DecodeExecutor`: large work off the cooperative pool);
///  3. bounds its output while it is written (`BudgetedOutput`): the policy's `maxOutputBytes`,
///     the amplification allowance (`AmplificationCap`, a typed stop → 422
///     `output.amplification_exceeded`) and the lease, step by step;
///  4. gives back the working set, keeping the output reserved until the response is sent.
///
/// Decode errors map to HTTP in one place each (`Problems/`): `ArchiveGateError`, `EncodeError`.
struct DecodePipeline: Sendable {
    let lease: MemoryLease
    let cap: AmplificationCap

    /// Redact cascades a sanitize follows (each a full decode of the previous output; the core's
    /// default is 64): a 50 KB upload built to cascade may cost this many decodes, not 65.
    static let maximumSanitizeCascade = 4

    /// The tenant's report for `bytes`.
    func validate(_ bytes: [UInt8], with inspector: ArchiveInspector) async throws -> ValidationReport {
        try await reserving(DecodeEstimate.decode(bytes, maxObjects: inspector.policy.limits.maxObjects), size: bytes.count) {
            try inspector.validate(bytes)
        }
    }

    /// The tenant's report and JSON for `bytes` (nil JSON when the policy rejects). The JSON is
    /// streamed into a `BudgetedOutput`: refused the moment it passes the amplification allowance
    /// or the lease, and its bytes stay reserved until the lease is released.
    func convert(_ bytes: [UInt8], mode: OutputMode, with inspector: ArchiveInspector) async throws -> Inspection {
        let output = BudgetedOutput(lease: lease, allowance: allowance(bytes.count, policyCap: inspector.policy.limits.maxOutputBytes), charge: 1)
        let inspection = try await guarded(output, archiveBytes: bytes.count) {
            try await reserving(DecodeEstimate.decode(bytes, maxObjects: inspector.policy.limits.maxObjects), size: bytes.count) { () throws -> Inspection in
                let conversion = try inspector.prepareConversion(ByteStorage(bytes))
                guard conversion.rendersJSON else { return Inspection(report: conversion.report, json: nil) }
                guard try conversion.stream(mode: mode, pretty: false, to: output) else {
                    return Inspection(report: conversion.report, json: nil)  // stopped: `guarded` answers
                }
                return Inspection(report: conversion.report, json: output.takeJSON())
            }
        }
        lease.shrink(by: output.reservedBytes - (inspection.json?.count ?? 0))
        return inspection
    }

    /// The archive ArchiveGate writes for `bytes` under the tenant's policy, and the report (nil
    /// archive when the policy rejects). The output is bounded while written, as `convert`'s JSON.
    /// `onDecode` is told of each full decode: at most `maximumSanitizeCascade` + 2 (the original,
    /// the cascade's rounds, the check that the last round's output is clean).
    func sanitize(_ bytes: [UInt8], format: PropertyList.Format = .binary,
                  with inspector: ArchiveInspector,
                  onDecode: (@Sendable () -> Void)? = nil) async throws -> ArchiveSanitizer.Result {
        let output = BudgetedOutput(lease: lease, allowance: allowance(bytes.count, policyCap: inspector.policy.limits.maxOutputBytes),
                                    charge: DecodeEstimate.writtenArchiveBytesPerByte)
        var sanitizer = ArchiveSanitizer(inspector: inspector)
        sanitizer.outputGate = output
        sanitizer.maximumCascade = Self.maximumSanitizeCascade
        sanitizer.onDecode = onDecode
        let result = try await guarded(output, archiveBytes: bytes.count) {
            try await reserving(DecodeEstimate.decode(bytes, maxObjects: inspector.policy.limits.maxObjects), size: bytes.count) { [sanitizer] in
                try sanitizer.sanitize(bytes, format: format)
            }
        }
        lease.shrink(by: output.reservedBytes - (result.archive?.count ?? 0))
        return result
    }

    /// The archive typed JSON describes (`ArchiveEncoder`), bounded while written as `sanitize`'s,
    /// and its report under the tenant's policy (checked as any archive read).
    func encode(_ json: [UInt8], format: PropertyList.Format, policy: Policy) async throws -> ArchiveEncoder.Encoded {
        let output = BudgetedOutput(lease: lease, allowance: allowance(json.count, policyCap: policy.limits.maxOutputBytes),
                                    charge: DecodeEstimate.writtenArchiveBytesPerByte)
        let encoder = ArchiveEncoder(policy: policy, outputGate: output)
        let encoded = try await guarded(output, archiveBytes: json.count) {
            try await reserving(DecodeEstimate.typedJSON(jsonBytes: json.count), size: json.count) {
                try encoder.encodeReporting(json, format: format)
            }
        }
        lease.shrink(by: output.reservedBytes - (encoded.releasedArchive?.count ?? 0))
        return encoded
    }

    /// The amplification allowance for an input of `bytes`, or `.max` when the policy's own
    /// `maxOutputBytes` is the smaller cap (its refusal is then the core's limit error).
    private func allowance(_ bytes: Int, policyCap: Int) -> Int {
        let allowance = cap.allowance(inputBytes: bytes)
        return allowance < policyCap ? allowance : .max
    }

    /// Reserves `estimate`, runs `work` on the executor, gives the estimate back.
    private func reserving<T: Sendable>(_ estimate: Int, size: Int, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try lease.reserve(estimate)
        defer { lease.shrink(by: estimate) }
        return try await DecodeExecutor.run(bytes: size, work)
    }

    /// Runs `work`; when `output` was stopped, answers for the stop (typed) whatever the work
    /// returned or threw, and gives back what the output had reserved.
    private func guarded<T>(_ output: BudgetedOutput, archiveBytes: Int, _ work: () async throws -> T) async throws -> T {
        let result: Result<T, any Error>
        do { result = .success(try await work()) } catch { result = .failure(error) }
        switch output.stop {
        case .amplification(let allowance)?:
            lease.shrink(by: output.reservedBytes)
            throw ProblemError.amplificationExceeded(limit: allowance, archiveBytes: archiveBytes, factor: cap.factor)
        case .budget(let refusal)?:
            lease.shrink(by: output.reservedBytes)
            throw refusal
        case nil:
            if case .failure = result { lease.shrink(by: output.reservedBytes) }
            return try result.get()
        }
    }
}

extension ArchiveRequestContext {
    /// This request's pipeline: its lease and the server's amplification cap.
    var pipeline: DecodePipeline { DecodePipeline(lease: lease, cap: amplificationCap) }
}
