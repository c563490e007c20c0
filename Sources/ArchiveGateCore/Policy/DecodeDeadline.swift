/// The moment a decode must be finished by (`limits.maxDecodeMilliseconds`). Checked between
/// phases and every few thousand steps of the walk, so a check costs nothing measurable.
public struct DecodeDeadline: Sendable {
    private let end: ContinuousClock.Instant
    private let milliseconds: Int

    /// A deadline `milliseconds` from now.
    public init(milliseconds: Int) {
        self.milliseconds = milliseconds
        end = ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
    }

    /// Throws `archive.time_budget_exceeded` once the deadline has passed; `phase` says where.
    public func check(_ phase: String) throws(ArchiveError) {
        if ContinuousClock.now > end {
            throw ArchiveError(.timeBudgetExceeded, path: "",
                               "the decode ran past its budget of \(milliseconds) ms (\(phase))")
        }
    }
}
