import ArchiveGateCore

extension GraphvizExport {
    /// The verdict under the inspector's policy and the graph of an inspection-mode typed rendering
    /// (same limits), so a rejected archive can still be drawn with its violations in red.
    static func draw(_ bytes: ByteStorage, inspector: ArchiveInspector) throws -> (dot: String, report: ValidationReport) {
        let report = try inspector.validate(bytes)
        var inspection = Policy.inspection
        inspection.limits = inspector.policy.limits
        guard let typed = try ArchiveInspector(policy: inspection).convert(bytes, mode: .typed).json else {
            throw CLIFailure.usage("the archive could not be rendered")
        }
        return (try dot(typedJSON: typed, report: report), report)
    }
}
