/// NSValue without `NS.special`: an ObjC-typed value, `$0` the type string and `$1` the value,
/// which Foundation's `NSConcreteValue` decodes with `decodeValue(ofObjCType:at:)` — the plain JSON
/// shows it as `{"$class":"NSValue","$0":type,"$1":value}`.
extension KeyedArchive {
    /// The scalar ObjC types both Apple's Foundation and swift-corelibs-foundation decode (corelibs
    /// traps on `s`/`S`, structs, pointers, objects and selectors), with the integer range the
    /// decoded C type holds: `l`/`L` are 32-bit on Apple, so only 32-bit values are promised.
    static let scalarValueIntegerRanges: [String: ClosedRange<Int128>] = [
        "c": Int128(Int8.min) ... Int128(Int8.max), "C": 0 ... Int128(UInt8.max),
        "i": Int128(Int32.min) ... Int128(Int32.max), "I": 0 ... Int128(UInt32.max),
        "l": Int128(Int32.min) ... Int128(Int32.max), "L": 0 ... Int128(UInt32.max),
        "q": Int128(Int64.min) ... Int128(Int64.max), "Q": 0 ... Int128(UInt64.max),
    ]

    /// Why ObjC-typed NSValue `uid` is not the value the plain JSON shows; nil when Foundation
    /// decodes exactly `$1` as `$0`'s type. `$1` is read raw (an inline value, never a UID); a
    /// number that the C type cannot hold exactly (300 as `c`, 0.1 as `f`) would decode to another
    /// value, and fields besides `$0` and `$1` are not read at all.
    func scalarValueProblem(_ uid: Int, className: String) -> ShapeProblem? {
        let index = plistIndex(of: uid)
        for pair in 0 ..< plist.count(of: index) where !isClassPair(uid, pair: pair) {
            let key = userKey(uid, pair: pair)
            if key != "$0", key != "$1" {
                return ShapeProblem(.shapeMismatch, key: key, "\(className) with an ObjC type has a field '\(key)'; Foundation reads only $0 and $1")
            }
        }
        guard let type = fieldTarget(uid, "$0").flatMap({ stringValue(ofObject: $0) }), let value = field(uid, "$1") else { return nil }
        let kind = plist.kind(of: value)
        let fits: Bool
        if let range = Self.scalarValueIntegerRanges[type] {
            fits = kind == .integer && range.contains(plist.integer128(plist[value]))
        } else if type == "f" || type == "d" {
            let number = kind == .real ? plist.double(at: value) : kind == .integer ? plist.int64(at: value).flatMap { Double(exactly: $0) } : nil
            fits = number.map { $0.isFinite && (type == "d" || Double(Float($0)) == $0) } ?? false
        } else if type == "B" {
            fits = kind == .bool
        } else {
            return ShapeProblem(.invalidValue, key: "$0", "\(className) ObjC type '\(type)' is not a scalar type Foundation decodes (c C i I l L q Q f d B)")
        }
        return fits ? nil : ShapeProblem(.shapeMismatch, key: "$1", "\(className) $1 is not an inline value of ObjC type '\(type)'")
    }
}
