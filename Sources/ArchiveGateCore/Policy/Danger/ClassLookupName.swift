/// The class an unarchiver would actually look up for a `$classname` (or a `$classes` entry): the
/// danger catalogue matches this, not only the name as written, so that spellings Foundation's
/// class lookup treats as the same class cannot dodge it.
///
/// What the lookups ignore or map (the catalogue matches every one of these):
/// - **Everything from the first NUL on.** Apple's `NSClassFromString` hands the name to the
///   Objective-C runtime as a C string, so `"NSPredicate\u{0}x"` is looked up as `NSPredicate`.
/// - **A `Foundation.` module qualifier.** swift-corelibs-foundation looks unqualified names up in
///   the Foundation module and resolves `Foundation.NSPredicate` to the same class.
/// - **Canonical equivalence.** corelibs finds its Foundation classes in a Swift dictionary keyed
///   by `String`, whose equality is canonical equivalence: `NS\u{212A}eyPathExpression` (KELVIN
///   SIGN) is `NSKeyPathExpression` there. The catalogue's class sets compare the same way.
///
/// Not mapped: case (class names are case-sensitive on both platforms), surrounding whitespace,
/// and Swift mangled names (`_TtC…`, which corelibs refuses and Objective-C classes never have).
/// App-registered mappings (`setClass:forClassName:`) are the app's own and cannot be known here.
public enum ClassLookupName {
    /// The module corelibs looks unqualified Foundation class names up in.
    static let foundationQualifier = "Foundation."

    /// `name` as the lookup sees it (see the type's documentation).
    public static func normalised(_ name: String) -> String {
        var units = Substring(name)
        if let nul = units.unicodeScalars.firstIndex(of: "\u{0}") { units = units[..<nul] }
        if units.hasPrefix(foundationQualifier), units.count > foundationQualifier.count {
            let rest = units.dropFirst(foundationQualifier.count)
            if !rest.contains(".") { units = rest }
        }
        return String(units)
    }
}
