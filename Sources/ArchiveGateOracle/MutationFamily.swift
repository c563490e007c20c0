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
    /// `$top`'s root made inline, or an inline member of any plist kind added beside it (issue 36).
    case inlineTop = "inline-top"
    /// A string `"$null"` other than `$objects[0]`, referenced from a UID site or the root.
    case nullString = "null-string"
    /// An inline field value moved into its own entry and referenced (fields Foundation reads raw).
    case rawReference = "raw-reference"
    /// A number at or past a limit: dates outside 0001–9999, integers past 2^53/2^63/2^64, NaN, ∞.
    case outOfRange = "out-of-range"
    /// An ObjC-typed NSValue (`$0` type, `$1` value) of every ObjC type, fitting or not.
    case scalarValue = "scalar-value"
    /// A key respelled in a Unicode-equivalent or look-alike form, or such a key added.
    case unicodeKey = "unicode-key"
    /// A class record renamed to a look-alike of its Foundation name, or claiming it in `$classes`.
    case classSmuggling = "class-smuggling"
    /// Two mutations of different families.
    case combined

    static func < (lhs: MutationFamily, rhs: MutationFamily) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The families one mutation can be drawn from.
    static let single: [MutationFamily] = allCases.filter { $0 != .none && $0 != .combined }
}
