import HTTPTypes

/// Refusals of the memory budget (`MemoryBudget`) and of the output amplification cap.
extension ProblemError {
    /// 503: the server's memory budget or its concurrent-upload cap is exhausted by requests in progress.
    static func serverBusy(_ reason: String) -> ProblemError {
        .retryable(.serverBusy, after: MemoryBudget.retryAfterSeconds,
                   detail: "The server is at its memory budget: \(reason); retry after \(MemoryBudget.retryAfterSeconds) s.")
    }

    /// 429: this tenant's share of the memory budget, or its concurrent-upload cap, is exhausted.
    static func tenantBusy(_ reason: String) -> ProblemError {
        .retryable(.tenantBusy, after: MemoryBudget.retryAfterSeconds,
                   detail: "The tenant is at its share of the server: \(reason); retry after \(MemoryBudget.retryAfterSeconds) s.")
    }

    /// 422: the output (JSON, or the archive sanitize or encode writes) would be more than
    /// `memory.amplificationFactor` times the input (`BudgetedOutput` stopped it while writing).
    static func amplificationExceeded(limit: Int, archiveBytes: Int, factor: Int) -> ProblemError {
        ProblemError(.amplificationExceeded,
                     detail: "The output of this \(archiveBytes)-byte input would exceed \(limit) bytes (\(factor) × the input, at least \(AmplificationCap.minimumAllowance) bytes): shared references expand it too far.")
    }
}
