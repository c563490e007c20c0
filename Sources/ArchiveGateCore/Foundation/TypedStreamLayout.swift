/// The positional layouts Apple's `NSArchiver` writes for the Foundation (and AppKit) classes
/// ArchiveGate lowers into keyed objects, in one place: which groups an object of the class holds,
/// in stream order (superclass groups first), and which keyed object `NSKeyedArchiver` would write
/// for it. Learnt from Apple-written streams (the typedstream corpus), not from GNUstep, whose
/// NSArchiver layouts differ. docs/TYPEDSTREAM.md "Classes and their layouts" is the same table
/// for people.
///
/// An object whose class is not here, or whose groups do not match its class's layout, is lowered
/// generically: its positional values under the field keys `"0"`, `"1"`, … (`TypedStreamLowering`).
enum TypedStreamLayout: Sendable {
    /// `+` UTF-8 bytes → `NS.string`.
    case string
    /// `@` the string object, then runs: `iI` (attribute-set index from 1, length in UTF-16 units),
    /// followed by `@` an attribute dictionary the first time an index appears → `NSString`,
    /// `NSAttributes` (the dictionary, or an NSArray of them) and `NSAttributeInfo` (varint pairs).
    case attributedString
    /// `i` count, then `@` key and `@` value per entry → `NS.keys`, `NS.objects`.
    case dictionary
    /// `i` (NSArray) or `I` (NSSet) count, then one `@` per element → `NS.objects`.
    case array
    /// NSValue's `*` type encoding, then NSNumber's one value of that type → the inline number
    /// (a `c` of 0 or 1 as a boolean, as NSKeyedArchiver writes `@YES`/`@NO`).
    case number
    /// `i` length, then `[Nc]` the bytes → `NS.data`.
    case data
    /// `d` seconds since 2001-01-01 → `NS.time`.
    case date
    /// `c` 0 then `@` the string (absolute), or `c` 1, `@` the base NSURL, `@` the string (relative)
    /// → `NS.base`, `NS.relative`.
    case url
    /// Nothing → an object with no fields.
    case null
    /// `c` the color kind (1 calibrated RGB, 2 device RGB, 3 calibrated white, 4 device white,
    /// 5 device CMYK, 6 catalog), then its `f` components (`ffff`, `ff`, `fffff`) or, for a catalog
    /// color, `@` catalog name, `@` color name, `@` fallback color → `NSColorSpace` (the same
    /// numbers) and `NSRGB`/`NSWhite`/`NSCMYK` text, or `NSCatalogName`/`NSColorName`/`NSColor`.
    case color
    /// `i` length, then `[Nc]` the font name as a serialized property list (NeXT's `NSSerializer`
    /// form: a 4-byte tag 6 for a string and a 4-byte length in the writer's byte order, then UTF-16
    /// text with its byte-order mark),
    /// `f` the size and four `c` flags → `NSName` (a string object), `NSSize` and `NSfFlags` (the
    /// four flag bytes, first byte highest).
    case font
    /// NSValue's `*` type encoding, then one value of that type, for the geometry structures
    /// (`{CGPoint=dd}`/`{_NSPoint=ff}`, `{CGSize=dd}`/`{_NSSize=ff}`,
    /// `{CGRect={CGPoint=dd}{CGSize=dd}}`/`{_NSRect=…}`, `{_NSRange=QQ}`/`II`/`LL`) → `NS.special`
    /// 1–4 and the keyed text (`NS.pointval` "{x, y}", `NS.sizeval`, `NS.rectval`) or the range's
    /// `NS.rangeval.location`/`length`. Other NSValue types are lowered generically.
    case value

    /// The layout of the class named `name`, or nil for a class lowered generically. Exact names
    /// only: a subclass may add groups of its own.
    static func of(className name: String) -> TypedStreamLayout? {
        byClassName[name]
    }

    private static let byClassName: [String: TypedStreamLayout] = [
        "NSString": .string, "NSMutableString": .string,
        "NSAttributedString": .attributedString, "NSMutableAttributedString": .attributedString,
        "NSDictionary": .dictionary, "NSMutableDictionary": .dictionary,
        "NSArray": .array, "NSMutableArray": .array, "NSSet": .array, "NSMutableSet": .array,
        "NSNumber": .number,
        "NSData": .data, "NSMutableData": .data,
        "NSDate": .date,
        "NSURL": .url,
        "NSNull": .null,
        "NSColor": .color,
        "NSFont": .font,
        "NSValue": .value,
    ]
}
