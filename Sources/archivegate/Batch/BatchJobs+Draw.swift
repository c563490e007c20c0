import ArchiveGateCore

extension BatchJobs {
    /// `convert --format dot --out DIR` over a batch: one `<relative path>.dot` per archive, a
    /// rejected one included (its violations in red; counted as rejected); malformed files get no
    /// graph, only their stderr line.
    static func draw(_ inspector: ArchiveInspector) -> @Sendable (BatchInput) -> BatchFileResult {
        { input in
            let bytes: [UInt8]
            do {
                bytes = try InputReader.read(input.path, limit: inspector.policy.limits.maxInputBytes)
            } catch {
                return BatchFileResult(outcome: .unreadable, bytesRead: 0, record: nil, message: "cannot open '\(input.path)'")
            }
            do {
                let (dot, report) = try GraphvizExport.draw(bytes, inspector: inspector)
                if report.valid && report.unacknowledgedFindings.isEmpty {
                    return BatchFileResult(outcome: .converted, bytesRead: bytes.count, record: Array(dot.utf8), message: nil)
                }
                return BatchFileResult(outcome: .rejected(code: BatchOutcome.rejectionCode(report)), bytesRead: bytes.count,
                                       record: Array(dot.utf8), message: "\(input.path): \(Terminal.rejection(report))",
                                       mirrorsRejected: true)
            } catch let error as ArchiveGateError {
                return failure(error, input: input, bytes: bytes.count)
            } catch {
                return BatchFileResult(outcome: .unreadable, bytesRead: bytes.count, record: nil, message: "\(input.path): \(error)")
            }
        }
    }
}
