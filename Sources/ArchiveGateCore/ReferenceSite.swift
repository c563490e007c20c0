/// One reference site: field pair `pair` of object `uid`, and within an array-valued field the
/// element position (`element` is -1 for a direct field value).
public struct ReferenceSite: Hashable, Sendable {
    public var uid: Int32
    public var pair: Int32
    public var element: Int32

    public init(uid: Int, pair: Int, element: Int = -1) {
        self.uid = Int32(truncatingIfNeeded: uid)
        self.pair = Int32(truncatingIfNeeded: pair)
        self.element = Int32(truncatingIfNeeded: element)
    }
}
