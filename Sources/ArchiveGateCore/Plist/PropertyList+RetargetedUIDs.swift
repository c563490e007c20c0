extension PropertyList {
    /// This property list with every UID object whose value is in `values` holding `replacement`
    /// instead; everything else (object numbers, references, bytes) unchanged. Linear in the
    /// objects; `KeyedArchive` asks for it only when an archive has a referenced-as-nil string.
    func retargetingUIDs(_ values: Set<Int>, to replacement: UInt32) -> PropertyList {
        var table = objects
        table.replaceUIDs(values, with: replacement)
        return PropertyList(format: format, objects: table, references: references, bytes: bytes, root: root)
    }
}

extension PropertyListObjectTable {
    /// Replaces the value of every UID object whose value is in `values`. A UID is always packed in
    /// its 32-bit payload word (`packedSmall`), so only that word changes.
    mutating func replaceUIDs(_ values: Set<Int>, with replacement: UInt32) {
        for index in tags.indices where tags[index] == PropertyListObject.Kind.uid.rawValue {
            if values.contains(Int(payloads[index])) { payloads[index] = replacement }
        }
    }
}
