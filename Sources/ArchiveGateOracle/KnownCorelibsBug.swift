/// Disagreements caused by swift-corelibs-foundation itself, where Apple's Foundation behaves as
/// ArchiveGate does. Each is documented in docs/RELIABILITY.md ("Differential oracle").
enum KnownCorelibsBug: String, CaseIterable {
    /// corelibs' `decodeObject(of:forKey:)` fails the whole decode ("No value found for key …")
    /// when the key is absent; Apple's returns nil and the class carries on. So corelibs refuses an
    /// NSAttributedString without `NSAttributeInfo` (which its own archiver, like Apple's, omits for
    /// a single attribute run: it cannot decode its own output), an NSError without `NSUserInfo`,
    /// an NSURL without `NS.base` and an NSPersonNameComponents without one of its parts (its own
    /// archiver omits nil parts as well); inside a collection the failed object becomes a nil that
    /// traps. Discounted for those optional keys only, and only when Foundation decodes the archive
    /// with them written as `$null` (Apple's reading) to our JSON (`Oracle.classify`).
    case missingOptionalKey = "corelibs: absent optional key (NSAttributeInfo, NSUserInfo, NS.base, NSPersonNameComponents parts) is an error"

    /// corelibs' `NSDecimalNumber.init(coder:)` reads `NS.mantissa` with `decodeObject(forKey:)`,
    /// which secure coding refuses for an inline data value (Apple's layout), so every archived
    /// NSDecimalNumber fails ("Class NSDecimalNumber failed to decode"); it would also combine the
    /// mantissa bytes with `&` instead of `|`. Apple decodes it. The oracle cannot check
    /// NSDecimalNumber against Foundation on Linux: any failure on an archive that holds one is
    /// discounted (a refusal, or a trap when a collection receives the nil).
    case decimalNumberNeverDecodes = "corelibs: NSDecimalNumber never decodes"

    /// corelibs' NSError traps in `hash` (which is also why corelibs cannot archive one), so an
    /// NSError as a set or ordered-set member or a dictionary key crashes the decode; Apple's
    /// hashes it. Discounted only for a crash on an archive with an NSError in such a place.
    case errorHashTraps = "corelibs: NSError in a set or as a dictionary key traps (hash)"

    /// corelibs' NSAffineTransform reads only its own layout (a `$0` array of six numbers), not the
    /// `NSTransformStruct` bytes Apple's Foundation writes and reads (ArchiveGate reads Apple's and
    /// refuses corelibs'), so it refuses every archive ArchiveGate accepts with one. Discounted for
    /// any failure on an archive that holds an NSAffineTransform.
    case affineTransformLayout = "corelibs: NSAffineTransform reads only its own $0 layout, not Apple's NSTransformStruct"

    /// The bug behind a Foundation refusal of an archive ArchiveGate accepted, if it is a known one.
    static func explainRefusal(message: String, archive: ArchiveModel) -> KnownCorelibsBug? {
        if message.hasPrefix("signal"), archive.hasHashedError {
            return .errorHashTraps
        }
        // Whatever else is wrong with it, an archive holding an NSDecimalNumber cannot be decoded by
        // corelibs (it refuses, or traps further up when a collection receives the nil), so
        // Foundation's verdict on it says nothing about ArchiveGate's.
        if message.contains("Class NSDecimalNumber failed to decode")
            || archive.objects.indices.contains(where: { archive.className(of: $0) == "NSDecimalNumber" }) {
            return .decimalNumberNeverDecodes
        }
        if archive.objects.indices.contains(where: { archive.className(of: $0) == "NSAffineTransform" }) {
            return .affineTransformLayout
        }
        return nil
    }
}
