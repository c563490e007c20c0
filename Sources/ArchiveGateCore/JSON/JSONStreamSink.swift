/// Where streamed JSON goes, chunk by chunk, as it is rendered (a file, stdout, an HTTP body).
///
/// A sink sees the document's bytes in order; a rendering that fails after the first chunk leaves
/// the sink with an unfinished document (never its closing bytes), and the caller must say so.
public protocol JSONStreamSink: AnyObject {
    /// Takes the next bytes of the document; returns false to stop the rendering (the write
    /// failed, the reader went away). The buffer is valid only during the call.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool
}

/// What `JSONOutput` hands its full chunks to: the compact bytes, in order.
protocol JSONChunkConsumer: AnyObject {
    /// Returns false to stop.
    func consume(_ chunk: UnsafeBufferPointer<UInt8>) -> Bool
}

/// The compact chunks a renderer flushes, run through the output switches (`PlainJSONFilter`) and
/// the indenter when asked, then written to the sink: the same bytes, in the same order, as the
/// whole-document path's `filter.apply(json, pretty:)`.
final class JSONStreamPipeline: JSONChunkConsumer {
    private var filter: PlainJSONFilterStream?
    private var indenter: JSONPrettyPrinter?
    private let sink: JSONStreamSink
    private var filtered: [UInt8] = []
    private var indented: [UInt8] = []
    /// True once the sink refused bytes.
    private(set) var isStopped = false

    init(filter: PlainJSONFilter, pretty: Bool, sink: JSONStreamSink) {
        self.filter = filter.isIdentity ? nil : PlainJSONFilterStream(filter: filter)
        self.indenter = pretty ? JSONPrettyPrinter() : nil
        self.sink = sink
    }

    func consume(_ chunk: UnsafeBufferPointer<UInt8>) -> Bool {
        pass(chunk, final: false)
    }

    /// Ends the document: bytes the stages held back for lookahead, and the indenter's last newline.
    func finish() -> Bool {
        pass(UnsafeBufferPointer(start: nil, count: 0), final: true)
    }

    private func pass(_ chunk: UnsafeBufferPointer<UInt8>, final: Bool) -> Bool {
        guard filter != nil else { return indent(chunk, final: final) }
        filtered.removeAll(keepingCapacity: true)
        if final { filter!.finish(into: &filtered) } else { filter!.feed(chunk, into: &filtered) }
        return filtered.withUnsafeBufferPointer { indent($0, final: final) }
    }

    private func indent(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) -> Bool {
        guard indenter != nil else { return write(bytes) }
        indented.removeAll(keepingCapacity: true)
        indenter!.feed(bytes, into: &indented)
        if final { indenter!.finish(into: &indented) }
        return indented.withUnsafeBufferPointer { write($0) }
    }

    private func write(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if isStopped { return false }
        if bytes.isEmpty { return true }
        if !sink.write(bytes) { isStopped = true }
        return !isStopped
    }
}
