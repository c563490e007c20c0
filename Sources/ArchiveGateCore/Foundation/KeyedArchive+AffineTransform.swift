/// NSAffineTransform's matrix, in the layout Apple's Foundation writes and reads
/// (`-[NSAffineTransform encodeWithCoder:]` / `initWithCoder:`): `NSTransformStruct` inline bytes of
/// big-endian float32s, as short as the matrix allows — none for the identity, 9 bytes (a tag, then
/// two floats) for a pure translation (tag 1: tX, tY) or pure scale (tag 2: m11, m22), 16 for scale
/// plus translation (m11, m22, tX, tY), 24 for all six (m11, m12, m21, m22, tX, tY). Any other length
/// or tag is a decode failure in Foundation.
extension KeyedArchive {
    /// The JSON member names, with their quotes and colons, in matrix order.
    static let affineTransformMembers: [StaticString] = [
        "\"m11\":", "\"m12\":", "\"m21\":", "\"m22\":", "\"tX\":", "\"tY\":",
    ]

    /// m11, m12, m21, m22, tX, tY; nil when Foundation would refuse the bytes.
    public func affineTransform(_ uid: Int) -> [Double]? {
        guard let value = field(uid, "NSTransformStruct") else { return [1, 0, 0, 1, 0, 0] }
        guard plist.kind(of: value) == .data, let bytes = plist.data(at: value) else { return nil }
        func float(at offset: Int) -> Double {
            let start = bytes.startIndex + offset
            let bits = UInt32(bytes[start]) << 24 | UInt32(bytes[start + 1]) << 16 | UInt32(bytes[start + 2]) << 8 | UInt32(bytes[start + 3])
            return Double(Float(bitPattern: bits))
        }
        switch bytes.count {
        case 0:
            return [1, 0, 0, 1, 0, 0]
        case 9 where bytes[bytes.startIndex] == 1:
            return [1, 0, 0, 1, float(at: 1), float(at: 5)]
        case 9 where bytes[bytes.startIndex] == 2:
            return [float(at: 1), 0, 0, float(at: 5), 0, 0]
        case 16:
            return [float(at: 0), 0, 0, float(at: 4), float(at: 8), float(at: 12)]
        case 24:
            return (0 ..< 6).map { float(at: 4 * $0) }
        default:
            return nil
        }
    }

    /// Bytes Foundation reads, and not swift-corelibs-foundation's own layout (a `$0` array of six
    /// numbers, which Apple's decoder ignores: it would read the identity where the writer meant
    /// another matrix).
    func checkAffineTransform(_ object: inout ShapeCheckObject) {
        object.report(affineTransformProblem(object.uid, className: object.className))
    }

    private func affineTransformProblem(_ uid: Int, className: String) -> ShapeProblem? {
        if field(uid, "$0") != nil {
            return ShapeProblem(.shapeMismatch, key: "$0", "\(className) has swift-corelibs-foundation's $0 matrix, which Apple's Foundation does not read (it reads NSTransformStruct)")
        }
        if field(uid, "NSTransformStruct").map({ plist.kind(of: $0) == .data }) == true, affineTransform(uid) == nil {
            return ShapeProblem(.invalidValue, key: "NSTransformStruct", "\(className) NSTransformStruct is not 0, 9 (tag 1 or 2), 16 or 24 bytes")
        }
        return nil
    }
}
