/// A typedstream on its way through the pipeline: the graph the reader made, and the keyed
/// archive its objects were lowered into (`uids[i]` is the UID of stream object `i`). The policy
/// and the plain renderer work on the archive; typed mode renders the graph itself, losslessly.
struct LoweredTypedStream {
    let graph: TypedStreamGraph
    let archive: KeyedArchive
    let uids: [Int]
}

extension ArchiveInspector {
    /// Reads a typedstream under the policy's reader limits and lowers it; reader and lowering
    /// failures are `ArchiveGateError.typedStream` with the byte offset, a passed deadline
    /// `archive.time_budget_exceeded`.
    func decodeTypedStream(_ bytes: ByteStorage, deadline: DecodeDeadline?) throws(ArchiveGateError) -> LoweredTypedStream {
        let graph: TypedStreamGraph
        do {
            graph = try TypedStreamReader.read(bytes, limits: policy.limits.propertyList)
        } catch {
            throw .typedStream(error)
        }
        try Self.check(deadline, "reading the typedstream")
        let lowered: (archive: KeyedArchive, uids: [Int])
        do {
            lowered = try TypedStreamLowering.keyedArchive(from: graph, maxObjects: policy.limits.maxObjects)
        } catch {
            throw .typedStream(error)
        }
        try Self.check(deadline, "lowering the typedstream")
        return LoweredTypedStream(graph: graph, archive: lowered.archive, uids: lowered.uids)
    }

    private static func check(_ deadline: DecodeDeadline?, _ phase: String) throws(ArchiveGateError) {
        do {
            try deadline?.check(phase)
        } catch {
            throw .archive(error)
        }
    }
}

extension ArchiveConversion {
    /// Typed mode for a typedstream: the stream's own lossless JSON, with the objects the policy
    /// redacts written as redacted.
    func renderTypedStream() throws(ArchiveError) -> [UInt8] {
        guard let typedStream else { return [] }
        return try TypedStreamJSON.render(typedStream.graph, redacted: redactedStreamObjects(typedStream), limits: policy.limits)
    }

    /// The stream indexes of what the policy redacts: redacted objects, the targets of redacted
    /// reference sites and `$top` entries. What the lowering added (an attributed string's NSArray of
    /// attribute dictionaries, its run data) is no stream object: the stream object that holds it is
    /// redacted instead, so typed mode never shows more than plain mode.
    func redactedStreamObjects(_ typedStream: LoweredTypedStream) -> Set<Int> {
        let redactions = evaluation.redactions
        guard !redactions.isEmpty else { return [] }
        var streamIndex = [Int: Int]()
        for (index, uid) in typedStream.uids.enumerated() { streamIndex[uid] = index }
        var targets = redactions.objects
        for entry in archive.top where redactions.topNames.contains(entry.name) { targets.insert(entry.uid) }
        for site in redactions.sites {
            let owner = Int(site.uid)
            if let reference = archive.fieldReferences(of: owner).first(where: { $0.pair == Int(site.pair) && ($0.element ?? -1) == Int(site.element) }) {
                targets.insert(streamIndex[reference.target] == nil ? owner : reference.target)
            }
        }
        var redacted = Set<Int>()
        for target in targets where target != 0 {
            if let index = streamIndex[target] {
                redacted.insert(index)
            } else {
                // An added object: redact the stream objects that refer to it.
                for (index, uid) in typedStream.uids.enumerated()
                where archive.fieldReferences(of: uid).contains(where: { $0.target == target }) {
                    redacted.insert(index)
                }
            }
        }
        return redacted
    }
}
