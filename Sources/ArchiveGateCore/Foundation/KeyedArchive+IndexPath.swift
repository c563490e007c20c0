/// NSIndexPath's indexes, decoded once here for the shape check and the plain renderer.
extension KeyedArchive {
    /// The indexes of an NSIndexPath, or nil when Foundation would not decode them: an inline
    /// `NSIndexPathLength`; for length 1 an inline `NSIndexPathValue`; for more, `NSIndexPathData`
    /// a reference to data (Foundation reads it with `decodeObject(of: NSData.self)`, which refuses
    /// inline data under secure coding) holding exactly `length` varints and no byte more. Negative
    /// lengths and indexes, and indexes past `Int.max`, are refused (Apple's are unsigned: they
    /// would not read back as the same path). Bounded by the bytes present.
    public func indexPath(_ uid: Int) -> [Int64]? {
        guard let lengthIndex = field(uid, "NSIndexPathLength"), plist.kind(of: lengthIndex) == .integer,
              let length = plist.int64(at: lengthIndex), length >= 0 else { return nil }
        switch length {
        case 0:
            return []
        case 1:
            guard let valueIndex = field(uid, "NSIndexPathValue"), plist.kind(of: valueIndex) == .integer,
                  let value = plist.int64(at: valueIndex), value >= 0 else { return nil }
            return [value]
        default:
            guard let reference = field(uid, "NSIndexPathData"), let target = referencedUID(reference), target != 0,
                  let dataIndex = dataIndex(reference), let data = plist.data(at: dataIndex),
                  length <= Int64(data.count) else { return nil }
            var reader = VarintReader(data)
            var indexes = [Int64]()
            indexes.reserveCapacity(Int(length))
            while Int64(indexes.count) < length, let index = reader.next() {
                guard index <= UInt64(Int64.max) else { return nil }
                indexes.append(Int64(index))
            }
            return Int64(indexes.count) == length && reader.isAtEnd ? indexes : nil
        }
    }

    /// NSIndexPath's rule: its indexes read (`indexPath`).
    func checkIndexPath(_ object: inout ShapeCheckObject) {
        if indexPath(object.uid) == nil {
            object.report(ShapeProblem(.invalidValue, key: nil,
                                       "\(object.className) has no readable NSIndexPathLength and NSIndexPathValue or NSIndexPathData indexes"))
        }
    }
}
