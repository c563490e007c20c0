/// The entry kind of every `$objects` UID as one 32-bit code each: a class-table index (≥ 0),
/// `nullCode` for `$null`, `classRecordCode` for a class record.
///
/// A flat integer table rather than `[KeyedArchive.Entry]` (16 bytes per entry with the enum's
/// tag and padding): it is read at every reference site of the policy walk and the renderers, and
/// it counts in peak memory once per object. It reads as a collection of `KeyedArchive.Entry`.
public struct EntryTable: RandomAccessCollection, Sendable {
    /// `$null` (UID 0).
    public static let nullCode: Int32 = -1
    /// A class record.
    public static let classRecordCode: Int32 = -2

    /// One code per UID.
    public let codes: [Int32]

    init(codes: [Int32]) {
        self.codes = codes
    }

    public var startIndex: Int { 0 }

    public var endIndex: Int { codes.count }

    public subscript(uid: Int) -> KeyedArchive.Entry {
        let code = codes[uid]
        if code >= 0 { return .object(classIndex: Int(code)) }
        return code == Self.classRecordCode ? .classRecord : .null
    }
}
