/// The structured mutations the oracle applies to Foundation-written archives, one family each.
enum MutationFamily: String, CaseIterable, Comparable {
    /// The Foundation-written archive itself.
    case none
    /// A field's plist type replaced (integer, real, bool, string, data, UID, array, dictionary).
    case fieldType = "field-type"
    /// A data, string or array field made shorter or longer.
    case length
    /// A field removed.
    case fieldDrop = "field-drop"
    /// A field added (a Foundation key or another name).
    case fieldAdd = "field-add"
    /// A UID pointed at another object (`$null`, a class record, any object).
    case uidRetarget = "uid-retarget"
    /// An object's `$class` changed, or a class record renamed.
    case classSwap = "class-swap"
    /// One object referenced from a second site.
    case sharing
    /// A UID pointed back at an ancestor.
    case cycle
    /// `$version` other than 100000.
    case version
    /// `$null` (UID 0) among a collection's elements or a dictionary's keys/values.
    case nullInCollection = "null-in-collection"
    /// A collection element repeated (same UID, or an equal copy).
    case duplicateMember = "duplicate-member"
    /// A referenced string/number/data replaced by the inline value itself.
    case inlineSwap = "inline-swap"
    /// Two mutations of different families.
    case combined

    static func < (lhs: MutationFamily, rhs: MutationFamily) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The families one mutation can be drawn from.
    static let single: [MutationFamily] = allCases.filter { $0 != .none && $0 != .combined }
}
