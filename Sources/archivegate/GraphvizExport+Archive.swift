import ArchiveGateCore

extension GraphvizExport {
    /// The verdict under the inspector's policy and the graph of the archive as stored (read under
    /// the same limits), so a rejected archive can still be drawn with its violations in red.
    static func draw(_ bytes: ByteStorage, inspector: ArchiveInspector) throws -> (dot: String, report: ValidationReport) {
        let report = try inspector.validate(bytes)
        let archive = try inspector.decode(bytes)
        return (dot(archive: archive, report: report), report)
    }
}
