import ArchiveGateCore

extension BatchJobs {
    /// `convert --format dot --out DIR` over a batch: one `<relative path>.dot` per archive, a
    /// rejected one included (its violations in red; counted as rejected); malformed files get no
    /// graph, only their stderr line.
    static func draw(_ inspector: ArchiveInspector) -> @Sendable (BatchInput) -> BatchFileResult {
        { input in
            withBytes(of: input, inspector) { bytes throws(ArchiveGateError) in
                let drawn: (dot: String, report: ValidationReport)
                do {
                    drawn = try GraphvizExport.draw(bytes, inspector: inspector)
                } catch let error as ArchiveGateError {
                    throw error
                } catch {
                    return BatchFileResult(outcome: .unreadable, bytesRead: bytes.count, record: nil, message: "\(input.path): \(error)")
                }
                let (dot, report) = drawn
                return BatchFileResult(outcome: BatchOutcome.of(report), bytesRead: bytes.count, record: Array(dot.utf8),
                                       message: Terminal.verdictLine(report).map { "\(input.path): \($0)" }, mirrors: true)
            }
        }
    }
}
