/// Reads of a string object's text location straight from the packed storage, for the key
/// comparisons that run once per dictionary pair (lookups by key, duplicate-key checks, the keyed
/// archive's reserved-key checks): a tag byte and a payload word, not a whole unpacked object.
extension PropertyListObjectTable {
    /// The offset and byte count of the ASCII or UTF-8 string object at `index` when its payload
    /// is in the packed 32-bit tier (nearly every key: offset below 2^26, fewer than 64 bytes);
    /// nil for any other object, including strings stored in a side table and UTF-16 strings,
    /// which the callers compare on their general path.
    @inlinable @inline(__always)
    func packedByteString(at index: Int) -> (start: Int, length: Int)? {
        let tag = tags[index]
        // A tag equal to the kind's raw value has neither side-table bit set: the payload is packed.
        guard tag == PropertyListObject.Kind.asciiString.rawValue || tag == PropertyListObject.Kind.utf8String.rawValue else {
            return nil
        }
        let payload = payloads[index]
        return (Int(payload & (1 << Self.smallOffsetBits - 1)), Int(payload >> Self.smallOffsetBits))
    }
}

extension PropertyListObjectTable {
    /// The value of the UID object at `index`, read from its payload word when packed (every UID
    /// fits the 32-bit tier; the unpacking subscript is the fallback for any other object).
    @inlinable @inline(__always)
    func uidPayload(at index: Int) -> Int {
        if tags[index] == PropertyListObject.Kind.uid.rawValue { return Int(payloads[index]) }
        return Int(self[index].first)
    }
}
