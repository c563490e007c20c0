/// Recognises old `NSArchiver` / `NSUnarchiver` output (NeXT "typedstream"), which predates keyed
/// archives and property lists: a version byte 4, a length byte 11, then `streamtyped` (little-endian
/// writers, every Apple platform since Intel) or `typedstream` (big-endian NeXT and PowerPC writers).
/// Such input is read by `TypedStreamReader` and lowered into a keyed archive
/// (`TypedStreamLowering`), so the same policy applies: iMessage keeps message text in typedstream
/// `NSAttributedString` BLOBs (`attributedBody`), and older apps their documents.
public enum TypedStream {
    private static let little = Array("\u{04}\u{0B}streamtyped".utf8)
    private static let big = Array("\u{04}\u{0B}typedstream".utf8)

    /// True when `bytes` starts with a typedstream header.
    public static func hasHeader(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: little) || bytes.starts(with: big)
    }
}
