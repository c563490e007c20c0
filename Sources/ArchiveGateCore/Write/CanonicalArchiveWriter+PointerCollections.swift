/// Sanitize's copy of NSHashTable, NSMapTable and NSPointerArray (`KeyedArchive+PointerCollections`):
/// the members Foundation decodes, renumbered `$1`, `$2` … after the header, then the `$null` end
/// marker and `NS.count`, as Apple's `encodeWithCoder:` writes them.
extension CanonicalArchiveWriter {
    /// The fields after `$class`; nil when the object is not a readable pointer collection (the
    /// walk reported it, and sanitize copies it field by field like any other object).
    ///
    /// A redacted member is left out of a hash table, and a redacted key or value takes its pair
    /// out of a map table (Foundation fails on a strong `$null` there); in a pointer array it
    /// becomes `$null`, the NULL pointer the array keeps, so positions do not move.
    mutating func pointerCollectionFields(_ old: Int, shape: FoundationShape) -> [PropertyListValue.Entry]? {
        guard case .success(let collection) = archive.pointerCollection(old, as: shape) else { return nil }
        func isRedacted(_ element: KeyedArchive.CollectionElement) -> Bool {
            redactions.objects.contains(element.target) || redactions.sites.contains(element.site)
        }
        var entries = collection.header.enumerated().map { PropertyListValue.Entry(key: "$\($0.offset)", value: scalar($0.element)) }
        var written = [PropertyListValue]()
        var count = 0
        switch shape {
        case .mapTable:
            for (key, value) in zip(collection.members, collection.values) where !isRedacted(key) && !isRedacted(value) {
                written.append(.uid(reference(key.target)))
                written.append(.uid(reference(value.target)))
                count += 1
            }
        case .pointerArray:
            for member in collection.members {
                written.append(.uid(member.target == 0 || isRedacted(member) ? 0 : reference(member.target)))
            }
            count = written.count
        default:
            for member in collection.members where !isRedacted(member) {
                written.append(.uid(reference(member.target)))
            }
            count = written.count
        }
        written.append(.uid(0))
        let start = entries.count
        for (offset, value) in written.enumerated() {
            entries.append(PropertyListValue.Entry(key: "$\(start + offset)", value: value))
        }
        if collection.hasCount { entries.append(PropertyListValue.Entry(key: "NS.count", value: .integer(Int128(count)))) }
        return entries
    }
}
