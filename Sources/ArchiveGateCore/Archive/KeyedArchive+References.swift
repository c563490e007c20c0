/// The references an instance holds in its fields as the archive stores them, whatever its class:
/// a UID field value, or a UID element of an array-valued field (`KeyedArchive.init` checked each
/// one). This is the lossless graph, the one the typed JSON shows; the policy walk and the plain
/// renderer read Foundation objects through their shapes instead (`FoundationShape`).
extension KeyedArchive {
    /// One reference from a field of an instance.
    public struct FieldReference: Hashable, Sendable {
        /// The field's pair position in the instance dictionary.
        public let pair: Int
        /// The position in the field's array, or nil for a field that is itself a UID.
        public let element: Int?
        /// The UID referred to (0 for `$null`).
        public let target: Int
    }

    /// The references in the fields of instance `uid`, in field order, `$class` left out; empty for
    /// `$null`, class records and inline scalars.
    public func fieldReferences(of uid: Int) -> [FieldReference] {
        guard let classIndex = classIndex(of: uid), !classes[classIndex].isInline else { return [] }
        let index = plistIndex(of: uid)
        let referencesStart = plist.referencesStart(of: index)
        var references: [FieldReference] = []
        for pair in 0 ..< plist.count(of: index) {
            if plist.stringEquals(Int(plist.references[referencesStart + 2 * pair]), "$class") { continue }
            let value = Int(plist.references[referencesStart + 2 * pair + 1])
            switch plist.kind(of: value) {
            case .uid:
                references.append(FieldReference(pair: pair, element: nil, target: plist.uidValue(at: value)))
            case .array:
                let start = plist.referencesStart(of: value)
                for position in 0 ..< plist.count(of: value) where plist.kind(of: Int(plist.references[start + position])) == .uid {
                    references.append(FieldReference(pair: pair, element: position,
                                                     target: plist.uidValue(ofReference: plist.references[start + position])))
                }
            default:
                break
            }
        }
        return references
    }
}
