/// What Foundation's decoder makes of inline values: a `$top` value that is not a UID, and a plist
/// number standing as an object in `$objects`.
///
/// An inline `$top` value: Apple's archiver writes one
/// only from `encodeBool`/`encodeInt…`/`encodeDouble`/`encodeBytes` at the top level, and each is
/// read back by the matching `decode…(forKey:)`; `decodeObject` (and so `unarchivedObject`, which
/// decodes `root` with it) needs a reference.
extension KeyedArchive {
    /// Why inline `$top` entry `entry` is not the value Foundation decodes under its name; nil when a
    /// `decode…(forKey:)` call reads it as archived. The plain JSON still shows the value (for
    /// inspection); the report is invalid, since no Foundation call returns it.
    public func inlineTopProblem(_ entry: TopEntry) -> ShapeProblem? {
        guard let index = entry.inlineValue else { return nil }
        let kind = plist.kind(of: index)
        if entry.name == "root" {
            return ShapeProblem(.shapeMismatch, key: entry.name,
                                "$top root is an inline \(kind); unarchivedObject decodes root with decodeObject, which needs a reference")
        }
        // A key with a single leading `$` is the archiver's own (`$0` for unkeyed encoding): no
        // keyed decode reads it (`decodeInt64(forKey: "$0")` looks up the escaped `$$0`).
        if entry.name.hasPrefix("$"), !entry.name.hasPrefix("$$") {
            return ShapeProblem(.shapeMismatch, key: entry.name, "$top '\(entry.name)' is an inline \(kind) under an archiver key; no keyed decode reads it")
        }
        switch kind {
        case .asciiString, .utf8String, .utf16String:
            return ShapeProblem(.shapeMismatch, key: entry.name,
                                "$top '\(entry.name)' is an inline string; no Foundation call decodes one (decodeObject needs a reference)")
        case .integer where plist.int64(at: index) == nil:
            return ShapeProblem(.invalidValue, key: entry.name,
                                "$top '\(entry.name)' is an integer beyond 64 bits; decodeInt64 does not read it (corelibs gives -1)")
        default:
            return nil
        }
    }

    /// Why inline object `uid` (a plist scalar in `$objects`) is not the NSNumber the JSON shows; nil
    /// for anything NSNumber holds. An integer beyond both Int64 and UInt64 is read as another
    /// number (corelibs gives 0 for 2^70).
    public func inlineObjectProblem(_ uid: Int) -> ShapeProblem? {
        let index = plistIndex(of: uid)
        guard plist.kind(of: index) == .integer, plist.int64(at: index) == nil else { return nil }
        let value = plist.integer128(plist[index])
        guard value < 0 || value > Int128(UInt64.max) else { return nil }
        return ShapeProblem(.invalidValue, key: nil, "the integer \(value) is beyond what an NSNumber holds (64 bits)")
    }
}
