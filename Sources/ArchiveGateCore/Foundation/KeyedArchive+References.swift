/// The references an instance holds in its fields as the archive stores them, whatever its class:
/// the edges of its field-by-field reading (`KeyedArchive+Edges`) — a UID field value, or a UID
/// element of an array or set held inline in a field. This is the lossless graph, the one the typed
/// JSON shows and `convert --format dot` draws; the policy walk and the plain renderer read
/// Foundation objects through their shapes instead.
extension KeyedArchive {
    /// One reference from a field of an instance.
    public struct FieldReference: Hashable, Sendable {
        /// The field's pair position in the instance dictionary.
        public let pair: Int
        /// The position in the field's array or set, or nil for a field that is itself a UID.
        public let element: Int?
        /// The UID referred to (0 for `$null`).
        public let target: Int
    }

    /// The references in the fields of instance `uid`, in field order, `$class` left out; empty for
    /// `$null`, class records and inline scalars.
    public func fieldReferences(of uid: Int) -> [FieldReference] {
        guard let classIndex = classIndex(of: uid), !classes[classIndex].isInline else { return [] }
        var references: [FieldReference] = []
        var edges = fieldEdges(of: uid)
        while let event = edges.next() {
            guard case .edge(let edge) = event else { continue }
            references.append(FieldReference(pair: Int(edge.site.pair), element: edge.kind == .fieldElement ? Int(edge.site.element) : nil,
                                             target: edge.target))
        }
        return references
    }
}
