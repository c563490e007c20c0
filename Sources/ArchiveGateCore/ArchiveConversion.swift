/// A decoded, evaluated archive on its way to JSON (`ArchiveInspector.prepareConversion`): the
/// report first, then the JSON, rendered whole or streamed to a sink in chunks.
///
/// Both ways write the same bytes. Streaming holds about one chunk of output (plus, with the output
/// switches, one object member held back for lookahead) instead of the whole document; the output
/// byte and node budget count every byte written, flushed or buffered. A failure after the first
/// chunk (budget, depth, deadline) cannot take back what the sink already has: the document then
/// ends without its closing bytes — the last chunk is only handed over once every check has
/// passed — and the caller must report the error (the CLI: stderr and a non-zero exit; HTTP: an
/// aborted body).
public struct ArchiveConversion {
    let archive: KeyedArchive
    let evaluation: PolicyEvaluation
    let policy: Policy
    let deadline: DecodeDeadline
    /// The stream a typedstream's archive was lowered from: typed mode renders it instead.
    var typedStream: LoweredTypedStream?

    /// The policy's verdict and findings.
    public var report: ValidationReport { evaluation.report }

    /// False when the verdict is `rejected`, so there is no JSON. Everything else the evaluation
    /// returns renders: accepted, redacted, and — for inspection — findings and an undecoded nested
    /// archive (shown as data), which the verdict still marks as not valid. Inspection mode (any
    /// class) also shows an archive whose only violations are Foundation objects with fields that
    /// do not match their class, as `{"$class": …}`, and the verdict stays `rejected`.
    public var rendersJSON: Bool {
        guard case .rejected = evaluation.report.verdict else { return true }
        return policy.allowed.acceptsAnyClass && evaluation.onlyShapeViolations
    }

    /// The whole document in memory (`pretty`: indented; the caller applies output switches).
    public func renderWhole(mode: OutputMode, pretty: Bool) throws(ArchiveGateError) -> [UInt8] {
        do throws(ArchiveError) {
            let json = try mode == .typed && typedStream != nil ? renderTypedStream()
                : render(archive, evaluation, mode: mode, sink: nil, chunkSize: 0)
            try deadline.check("rendering")
            return pretty ? JSONPrettyPrinter.format(json) : json
        } catch {
            throw .archive(error)
        }
    }

    /// Streams the document to `sink` in chunks of about `chunkSize` compact bytes, through the
    /// output switches (`filter`, plain mode) and the indenter (`pretty`). Returns false when the
    /// sink stopped taking bytes (the document is then unfinished; the sink knows why). Throws a
    /// render failure; the sink may then hold the start of the document.
    public func stream(mode: OutputMode, pretty: Bool, filter: PlainJSONFilter = PlainJSONFilter(),
                       to sink: JSONStreamSink, chunkSize: Int = 64 << 10) throws(ArchiveGateError) -> Bool {
        let pipeline = JSONStreamPipeline(filter: mode == .plain ? filter : PlainJSONFilter(), pretty: pretty, sink: sink)
        do throws(ArchiveError) {
            if mode == .typed, typedStream != nil {
                // Rendered whole (within the output budget), then handed over as one chunk.
                let json = try renderTypedStream()
                try deadline.check("rendering")
                _ = json.withUnsafeBufferPointer { pipeline.consume($0) }
                return pipeline.isStopped ? false : pipeline.finish()
            }
            // The deadline is checked inside, before the last chunk goes.
            _ = try render(archive, evaluation, mode: mode, sink: pipeline, chunkSize: chunkSize)
            if pipeline.isStopped { return false }
        } catch {
            throw .archive(error)
        }
        return pipeline.finish()
    }

    /// The archive's JSON, nested archives (`--nested`) rendered first, whole, and written in
    /// place as `{"$archive": …}` in the same mode (plain property lists in data as `{"$plist": …}`,
    /// plain mode only). Archives nest at most `NestingContext.maxLevel`
    /// deep, so this recursion is bounded; the output byte budget applies to each and to the whole.
    /// With a `sink`, the top-level document is streamed to it (its last bytes flushed only after
    /// the final checks) and the returned array is empty.
    private func render(_ archive: KeyedArchive, _ evaluation: PolicyEvaluation, mode: OutputMode,
                        sink: JSONChunkConsumer?, chunkSize: Int) throws(ArchiveError) -> [UInt8] {
        var nestedJSON: [Int: [UInt8]] = [:]
        for (index, nested) in evaluation.nested {
            var wrapped = Array(#"{"$archive":"#.utf8)
            wrapped += try render(nested.archive, nested.evaluation, mode: mode, sink: nil, chunkSize: 0)
            wrapped.append(UInt8(ascii: "}"))
            nestedJSON[index] = wrapped
        }
        // A plain property list in data is shown by plain mode's conventions; typed mode keeps the
        // data as it is (lossless).
        if mode == .plain {
            for (index, plist) in evaluation.nestedPlists {
                let json = try PropertyListJSON.render(plist, limits: policy.limits)
                nestedJSON[index] = Array(#"{"$plist":"#.utf8) + json + [UInt8(ascii: "}")]
            }
        }
        var output: JSONOutput
        switch mode {
        case .plain:
            if let minimum = evaluation.minimumPlainNodes, minimum > UInt64(policy.limits.maxOutputNodes) {
                let count = minimum == .max ? "more than 2^64" : String(minimum)
                throw ArchiveError(.outputLimitExceeded, path: "",
                                   "shared references would expand to \(count) JSON values; the limit is \(policy.limits.maxOutputNodes)")
            }
            var renderer = PlainRenderer(archive: archive, redactions: evaluation.redactions, limits: policy.limits,
                                         shapes: evaluation.shapes, nestedJSON: nestedJSON, sink: sink, chunkSize: chunkSize)
            try renderer.render()
            output = renderer.output
        case .typed:
            var renderer = TypedRenderer(archive: archive, redactions: evaluation.redactions, limits: policy.limits,
                                         nestedJSON: nestedJSON, sink: sink, chunkSize: chunkSize)
            try renderer.render()
            output = renderer.output
        }
        guard sink != nil else { return output.bytes }
        if !output.isStopped {
            // The last chunk goes only after the deadline check, so a late failure leaves the document unfinished.
            try deadline.check("rendering")
            output.flush()
        }
        return []
    }
}
