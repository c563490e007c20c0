/// Typed reads of an object's payload words, so that no code outside Plist/ decodes
/// `PropertyListObject.first`/`.second` itself. The callers know the object's kind (the keyed
/// archive checked it once); these only name what the words mean for that kind.
extension PropertyList {
    /// The UID of the UID object at `index`.
    @inlinable @inline(__always)
    public func uidValue(at index: Int) -> Int { objects.uidPayload(at: index) }

    /// The UID of the UID object a container's reference names (an element of `children(of:)`).
    @inlinable @inline(__always)
    public func uidValue(ofReference reference: UInt32) -> Int { objects.uidPayload(at: Int(reference)) }

    /// Where the references of the array, set or dictionary at `index` start in `references`
    /// (a dictionary's keys and values interleave from there).
    @inlinable @inline(__always)
    public func referencesStart(of index: Int) -> Int { Int(objects[index].first) }

    /// The value of the bool object at `index`.
    @inlinable @inline(__always)
    public func boolValue(at index: Int) -> Bool { objects[index].first != 0 }

    /// The value of the real object, or the seconds since 2001 of the date object, at `index`.
    @inlinable @inline(__always)
    public func realValue(at index: Int) -> Double { Double(bitPattern: objects[index].first) }

    /// The raw bit pattern of the real or date object at `index` (for identity comparisons).
    @inlinable @inline(__always)
    public func realBits(at index: Int) -> UInt64 { objects[index].first }

    /// Where the text of the string object at `index` is in `bytes`: its offset, and its length in
    /// bytes (ASCII, UTF-8) or in big-endian UTF-16 units.
    @inlinable @inline(__always)
    public func stringStorage(at index: Int) -> (start: Int, length: Int) {
        (Int(objects[index].first), Int(objects[index].second))
    }
}
