/// An output (convert's JSON, sanitize's or encode's archive) may be at most `factor` times the
/// input it was made from (at least `minimumAllowance`), besides the policy's absolute
/// `maxOutputBytes`: a 1 KB gzip of a 1 MiB string referenced 200 times is refused once the writer
/// passes the allowance, instead of growing a 200 MiB answer. `BudgetedOutput` enforces it while
/// the output is written; its refusal is its own typed stop, never recognised by a message.
struct AmplificationCap: Sendable, Hashable {
    /// Small inputs may always produce this much (shared references in a small archive are normal).
    static let minimumAllowance = 1 << 20
    /// `memory.amplificationFactor`.
    var factor: Int

    func allowance(inputBytes: Int) -> Int {
        let (product, overflow) = inputBytes.multipliedReportingOverflow(by: factor)
        return overflow ? .max : max(Self.minimumAllowance, product)
    }
}
