import Foundation

/// NSTimeZone as Foundation's `initWithCoder:` builds it: `TimeZone(identifier:)` of `NS.name`,
/// which may give the zone another name than the archived one.
extension KeyedArchive {
    /// The name of the time zone Foundation decodes NSTimeZone object `uid` to, or nil when it
    /// refuses `NS.name` (not a string, a control character, or no zone it knows).
    ///
    /// Foundation canonicalises some names: swift-corelibs-foundation (this platform's) decodes
    /// `UTC` as `GMT` and `GMT+8` as `GMT+0800`; the name rendered is the one the running platform's
    /// Foundation gives, so it follows the decoder it runs beside. Apple's Foundation was not
    /// checked (docs/RELIABILITY.md, "Time-zone names").
    public func timeZoneName(_ uid: Int) -> String? {
        // TimeZone(identifier:) reads the name as a C string, so "Europe/Paris\0" would pass as
        // Paris; Foundation's decoder refuses it (oracle --seed 7 --only 16545).
        guard let name = referencedString(uid, "NS.name"), !name.unicodeScalars.contains(where: { $0.value < 0x20 }),
              let zone = TimeZone(identifier: name) else { return nil }
        return zone.identifier
    }

    /// NSTimeZone's rule: a name Foundation knows (`timeZoneName`).
    func checkTimeZone(_ object: inout ShapeCheckObject) {
        if let name = referencedString(object.uid, "NS.name"), timeZoneName(object.uid) == nil {
            object.report(ShapeProblem(.invalidValue, key: "NS.name", "\(object.className) NS.name '\(name)' is not a time zone Foundation knows"))
        }
    }
}
