import ArchiveGateCore

/// The keys whose absence corelibs treats as corrupt data while Apple's Foundation reads nil
/// (`KnownCorelibsBug.missingOptionalKey`).
extension ArchiveModel {
    /// `$classname`s and the optional key each one's `initWithCoder:` reads with `decodeObject(of:forKey:)`.
    static let optionalKeys: [(classNames: Set<String>, key: String)] = [
        (["NSError"], "NSUserInfo"),
        (["NSAttributedString", "NSMutableAttributedString"], "NSAttributeInfo"),
        (["NSURL"], "NS.base"),
    ] + ["NS.namePrefix", "NS.givenName", "NS.middleName", "NS.familyName", "NS.nameSuffix", "NS.nickname",
         "NS.phoneticRepresentation"].map { (["NSPersonNameComponents"], $0) }

    /// The archive with each absent optional key written as `$null` — what Apple's decoder reads
    /// for an absent key (nil) and corelibs reads without complaint — or nil when no object lacks
    /// one. Foundation's answer on it is Apple's answer on the original, for these keys.
    func fillingAbsentOptionalKeys() -> ArchiveModel? {
        var filled = self
        var changed = false
        for uid in objects.indices {
            guard let name = className(of: uid) else { continue }
            for (classNames, key) in Self.optionalKeys where classNames.contains(name) && objects[uid][field: key] == nil {
                filled.objects[uid][field: key] = .uid(0)
                changed = true
            }
        }
        return changed ? filled : nil
    }
}

extension ArchiveModel {
    /// Whether an NSError is a member of a set or ordered set, or a dictionary key (`KnownCorelibsBug.errorHashTraps`).
    var hasHashedError: Bool {
        let hashing: Set<String> = ["NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet", "NSDictionary", "NSMutableDictionary"]
        for uid in objects.indices {
            guard let name = className(of: uid), hashing.contains(name), case .dictionary(let fields) = objects[uid] else { continue }
            let isDictionary = name.hasSuffix("Dictionary")
            for entry in fields where isDictionary ? entry.key == "NS.keys" : (entry.key == "NS.objects" || entry.key.hasPrefix("NS.object.")) {
                let references: [PropertyListValue] = if case .array(let list) = entry.value { list } else { [entry.value] }
                for case .uid(let target) in references where className(of: Int(target)) == "NSError" { return true }
            }
        }
        return false
    }
}
