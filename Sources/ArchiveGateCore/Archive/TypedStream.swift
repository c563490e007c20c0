/// Recognises old `NSArchiver` / `NSUnarchiver` output (NeXT "typedstream"), which predates keyed
/// archives and property lists: a version byte 4, a length byte 11, then `streamtyped` (little-endian
/// writers, every Apple platform since Intel) or `typedstream` (big-endian NeXT and PowerPC writers).
/// Such input is refused by name instead of as "not a property list", so a forensic user knows what
/// the file is. Forensic extractions still meet it in `NSAttributedString` BLOBs of older macOS apps.
public enum TypedStream {
    private static let little = Array("\u{04}\u{0B}streamtyped".utf8)
    private static let big = Array("\u{04}\u{0B}typedstream".utf8)

    /// True when `bytes` starts with a typedstream header.
    public static func hasHeader(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: little) || bytes.starts(with: big)
    }

    /// The error for typedstream input: at the start of the input (path "").
    public static var unsupported: ArchiveError {
        ArchiveError(.typedstreamNotSupported, path: "",
                     "this is an NSArchiver typedstream (a '\\x04\\x0bstreamtyped' header), the pre-keyed archive format; only NSKeyedArchiver property lists are decoded")
    }
}
