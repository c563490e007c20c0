import ArchiveGateCore

extension ProblemError {
    /// `/v1/convert` on an archive the tenant's policy rejects: 422 with the violations.
    static func policyRejected(_ report: ValidationReport) -> ProblemError {
        let count = report.violations.count
        return ProblemError(.policyRejected, detail: "The archive breaks policy '\(report.policy)' (\(count)\(report.violationsTruncated ? "+" : "") violation\(count == 1 ? "" : "s")).",
                            violations: report.violations, violationsTruncated: report.violationsTruncated)
    }
}
