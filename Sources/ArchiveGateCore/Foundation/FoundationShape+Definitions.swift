/// Everything ArchiveGate knows about each Foundation class it admits, in one table: the
/// `$classname`s of the family, the fields Foundation's own `initWithCoder:` decodes (plist kind,
/// length, whether required, which classes a referenced field accepts), how the object appears in
/// the plain JSON, what must read for an object to take the shape and the class's own checks. The
/// policy walk (children and their expected classes), the shape decision and the shape check, the
/// plain renderer (JSON form and members), sanitize (the fields kept) and the policy groups all
/// read it.
///
/// Adding a class is a case in `FoundationShape` and its `definition` entry, side by side below
/// (the compiler asks for the entry; the ordinal is the case's position). Layout code the fields
/// cannot say goes into `KeyedArchive+<Class>.swift`, named by the entry's `reads` and `check`; a
/// new `JSONForm` also needs its rendering (`JSON/PlainRenderer+Foundation.swift`).
extension FoundationShape {
    /// How an object of the shape is written in the plain JSON.
    enum JSONForm {
        /// Its text (`NS.string` or UTF-8 `NS.bytes`).
        case string
        /// Its bytes in base64.
        case base64
        /// An ISO 8601 timestamp.
        case date
        case null
        /// The canonical UUID text.
        case uuid
        /// The absolute URL string, resolved as NSURL does.
        case url
        /// The string the named field references (NSLocale's identifier, NSTimeZone's name).
        case referencedString(StaticString)
        /// `{"x","y"}`, `{"location","length"}` …: NSValue's geometry and range forms.
        case value
        /// The exact decimal text.
        case decimal
        /// `[{"location","length"}]`.
        case ranges
        /// `[1, 2, 3]`: NSIndexPath's indexes.
        case indexes
        /// `{"m11","m12","m21","m22","tX","tY"}`: NSAffineTransform's matrix.
        case transform
        /// `{"colorSpace","red","green","blue","alpha"}` or `{"colorSpace","white","alpha"}`.
        case color
        /// A JSON array of the elements.
        case array
        /// An object for string keys, else `[{"key","value"}]`.
        case dictionary
        /// An object whose members are the fields with a `json` member, in table order.
        case members
        /// `[{"text","attributes"}]`: NSAttributedString's text split by its attribute runs.
        case attributedRuns
    }

    /// What a field must hold (checked by `KeyedArchive+ShapeCheck`).
    enum FieldKind {
        /// A UID of a string object (inline string or NSString instance), not `$null`.
        case stringReference
        /// Inline data in the object's own dictionary (Foundation reads it as a property-list value).
        case inlineData
        /// Inline data read raw (`decodeBytes`, which does not follow a UID); `bytes` is the exact
        /// length when Foundation checks one.
        case data(bytes: Int?)
        /// An inline integer (read with `decodeInteger`, which does not follow a UID).
        case integer
        /// An inline finite integer or real (read with `decodeDouble`, which does not follow a UID).
        case finiteNumber
        /// A UID (the class found there is checked by the walk against `accepts`).
        case reference
        /// A UID of data (an inline data entry or an NSData instance) or `$null`, not inline data.
        case dataReference
    }

    /// A member of the `.members` JSON form.
    enum JSONMember {
        /// The referenced object, rendered as usual; `null` when absent.
        case reference(StaticString)
        /// The inline scalar; `null` when absent.
        case scalar(StaticString)
        /// An inline integer, `null` when it is NSDateComponentUndefined (`Int.max`) or absent.
        case component(StaticString)
        /// An inline number of seconds since 2001-01-01 as an ISO 8601 timestamp (like NSDate); `null` when absent.
        case scalarDate(StaticString)
        /// An inline number; `0` when absent (`decodeInteger`/`decodeDouble` read an absent key as 0,
        /// and archivers leave out the fields that are 0).
        case defaulted(StaticString)
    }

    struct Field {
        let key: StaticString
        /// Nil when the class's own rule in the shape check covers the field.
        let kind: FieldKind?
        let required: Bool
        /// For a field that may be a reference: the exact `$classname`s Foundation accepts there
        /// (the walk follows it as a child and checks its class); nil for plain values.
        let accepts: Set<String>?
        let json: JSONMember?

        init(_ key: StaticString, _ kind: FieldKind?, required: Bool = false, accepts: Set<String>? = nil, json: JSONMember? = nil) {
            self.key = key
            self.kind = kind
            self.required = required
            self.accepts = accepts
            self.json = json
        }
    }

    /// Whether object `uid` has the layout its shape reads (`KeyedArchive.shape(of:layouts:)`),
    /// collection and dictionary layouts read through `layouts`.
    typealias LayoutReader = @Sendable (_ archive: KeyedArchive, _ uid: Int, _ layouts: inout LayoutMemo) -> Bool
    /// A class's own rules, run by the shape check after the fields' checks: each problem found is
    /// reported into `object`.
    typealias ShapeRule = @Sendable (_ archive: KeyedArchive, _ object: inout ShapeCheckObject) -> Void

    struct Definition {
        /// The `$classname`s read with this shape (the class and its mutable subclass).
        let classNames: [String]
        let fields: [Field]
        let json: JSONForm
        /// The policy group that admits the class: `foundation` is what Foundation itself ships;
        /// other frameworks' value classes get their own group, so a gate admits them deliberately.
        var group: ShapeGroup = .foundation
        /// What must read for an object to take the shape; one that does not is shown as
        /// `{"$class": …}` like any class (the shape check says why). Nil: every object of the
        /// class takes it (its faults are the shape check's).
        var reads: LayoutReader? = nil
        /// The rules the fields cannot say (`KeyedArchive+<Class>.swift`); nil when the fields say it all.
        var check: ShapeRule? = nil
        /// The keys `reads` and `check` read besides `fields`: Foundation decodes them, so sanitize
        /// keeps them and the plain JSON does not list them under `$unread`.
        var ruleKeys: [String] = []
        /// Keys Foundation writes that no check reads (sanitize leaves them out) but whose
        /// information the JSON form already shows, so they are not listed under `$unread` either
        /// (docs/FOUNDATION-LAYOUTS.md "Values the plain JSON shows in another form").
        var shownInAnotherForm: [String] = []
    }

    /// NSArray's, NSSet's and NSOrderedSet's: their elements' layout (`NS.objects` or corelibs'
    /// `NS.object.N`) reads.
    private static let collectionReader: LayoutReader = { archive, uid, layouts in layouts.collection(uid, in: archive) != nil }

    private static let strings: Set<String> = ["NSString", "NSMutableString"]
    private static let datas: Set<String> = ["NSData", "NSMutableData"]
    private static let numbers: Set<String> = ["NSNumber"]

    /// NSUnit and the dimensions both Apple's Foundation and swift-corelibs-foundation archive under
    /// these names. Left out: NSUnitConcentrationMass (corelibs writes and reads it as
    /// `UnitConcentrationMass`), NSUnitInformationStorage (not in corelibs), and NSUnitFuelEfficiency,
    /// whose units use NSUnitConverterReciprocal, which is not in the table.
    static let dimensionClassNames: Set<String> = [
        "NSUnitAcceleration", "NSUnitAngle", "NSUnitArea", "NSUnitDispersion", "NSUnitDuration", "NSUnitElectricCharge",
        "NSUnitElectricCurrent", "NSUnitElectricPotentialDifference", "NSUnitElectricResistance", "NSUnitEnergy",
        "NSUnitFrequency", "NSUnitIlluminance", "NSUnitLength", "NSUnitMass", "NSUnitPower", "NSUnitPressure", "NSUnitSpeed",
        "NSUnitTemperature", "NSUnitVolume",
    ]
    static let unitClassNames: Set<String> = dimensionClassNames.union(["NSUnit"])
}

/// The Foundation classes whose keyed encoding ArchiveGate understands, so that they render as
/// natural JSON and their internal fields are checked against what Foundation itself decodes. One
/// case per class family, each with its `definition` entry below.
public enum FoundationShape: Int, Hashable, Sendable, CaseIterable {
    case string, data, date, array, set, orderedSet, dictionary, null, url, uuid, value
    case attributedString, decimalNumber, indexSet, error, locale, timeZone
    case dateInterval, personNameComponents, location, indexPath, measurement, unit, unitConverter
    case affineTransform, color, dateComponents, calendar
    case hashTable, mapTable, pointerArray, font, paragraphStyle

    /// The table.
    var definition: Definition {
        switch self {
        case .string:
            Definition(classNames: ["NSString", "NSMutableString"], fields: [
                Field("NS.string", nil, accepts: Self.strings),
                Field("NS.bytes", nil, accepts: Self.datas),
            ], json: .string,
                       reads: { archive, uid, _ in archive.hasStringValue(ofObject: uid) }, check: { $0.checkString(&$1) })
        case .data:
            Definition(classNames: ["NSData", "NSMutableData"], fields: [
                Field("NS.data", .inlineData, required: true, accepts: Self.datas),
            ], json: .base64,
                       reads: { archive, uid, _ in archive.hasData(uid, "NS.data") })
        case .date:
            Definition(classNames: ["NSDate"], fields: [
                Field("NS.time", .finiteNumber, required: true, accepts: Self.numbers),
            ], json: .date,
                       reads: { archive, uid, _ in archive.hasFiniteNumber(uid, "NS.time") }, check: { $0.checkDate(&$1) })
        case .array:
            Definition(classNames: ["NSArray", "NSMutableArray"], fields: [], json: .array,
                       reads: Self.collectionReader, check: { $0.checkCollection(&$1) }, ruleKeys: ["NS.objects"])
        case .set:
            Definition(classNames: ["NSSet", "NSMutableSet"], fields: [], json: .array,
                       reads: Self.collectionReader, check: { $0.checkCollection(&$1) }, ruleKeys: ["NS.objects"])
        case .orderedSet:
            Definition(classNames: ["NSOrderedSet", "NSMutableOrderedSet"], fields: [], json: .array,
                       reads: Self.collectionReader, check: { $0.checkCollection(&$1) }, ruleKeys: ["NS.objects"])
        case .dictionary:
            Definition(classNames: ["NSDictionary", "NSMutableDictionary"], fields: [], json: .dictionary,
                       reads: { archive, uid, layouts in layouts.dictionary(uid, in: archive) != nil }, check: { $0.checkDictionary(&$1) },
                       ruleKeys: ["NS.keys", "NS.objects"])
        case .null:
            Definition(classNames: ["NSNull"], fields: [], json: .null)
        case .url:
            Definition(classNames: ["NSURL"], fields: [
                Field("NS.base", .reference, required: true, accepts: ["NSURL"]),
                Field("NS.relative", .stringReference, required: true, accepts: Self.strings),
            ], json: .url,
                       reads: { archive, uid, _ in archive.hasReferencedString(uid, "NS.relative") }, check: { $0.checkURL(&$1) })
        case .uuid:
            Definition(classNames: ["NSUUID"], fields: [
                Field("NS.uuidbytes", .data(bytes: 16), required: true, accepts: Self.datas),
            ], json: .uuid,
                       reads: { archive, uid, _ in archive.hasData(uid, "NS.uuidbytes", count: 16) })
        case .value:
            Definition(classNames: ["NSValue"], fields: [
                Field("NS.pointval", nil, accepts: Self.strings),
                Field("NS.sizeval", nil, accepts: Self.strings),
                Field("NS.rectval", nil, accepts: Self.strings),
                Field("NS.rangeval.location", nil, accepts: Self.numbers),
                Field("NS.rangeval.length", nil, accepts: Self.numbers),
            ], json: .value, check: { $0.checkValue(&$1) },
                       ruleKeys: ["NS.special", "NS.edgeval.top", "NS.edgeval.left", "NS.edgeval.bottom", "NS.edgeval.right"])
        case .attributedString:
            Definition(classNames: ["NSAttributedString", "NSMutableAttributedString"], fields: [
                // The runs are read by KeyedArchive+AttributedRuns; Foundation leaves NSAttributes out
                // for an empty string only.
                Field("NSString", .stringReference, required: true, accepts: Self.strings),
                Field("NSAttributes", .reference, accepts: ["NSDictionary", "NSMutableDictionary", "NSArray", "NSMutableArray"]),
                // A reference to data: corelibs' decoder (decodeObject) refuses inline data, as Apple's
                // decodeObjectOfClass: does.
                Field("NSAttributeInfo", .dataReference, accepts: Self.datas),
            ], json: .attributedRuns,
                       reads: { archive, uid, _ in archive.hasAttributedRuns(uid) }, check: { $0.checkAttributedString(&$1) })
        case .decimalNumber:
            Definition(classNames: ["NSDecimalNumber"], fields: [
                Field("NS.mantissa", nil, accepts: Self.datas),
            ], json: .decimal, check: { $0.checkDecimalNumber(&$1) },
                       ruleKeys: ["NS.exponent", "NS.length", "NS.negative"], shownInAnotherForm: ["NS.compact", "NS.mantissa.bo"])
        case .indexSet:
            Definition(classNames: ["NSIndexSet", "NSMutableIndexSet"], fields: [
                Field("NSRangeData", .dataReference, accepts: Self.datas),
            ], json: .ranges, check: { $0.checkIndexSet(&$1) },
                       // One range is NSLocation and NSLength, several an NSRangeData table (corelibs and Darwin alike).
                       ruleKeys: ["NSRangeCount", "NSLocation", "NSLength"])
        case .error:
            Definition(classNames: ["NSError"], fields: [
                Field("NSDomain", .stringReference, required: true, accepts: Self.strings, json: .reference("domain")),
                Field("NSCode", .integer, required: true, json: .scalar("code")),
                Field("NSUserInfo", .reference, accepts: ["NSDictionary", "NSMutableDictionary"], json: .reference("userInfo")),
            ], json: .members,
                       reads: { archive, uid, _ in archive.hasReferencedString(uid, "NSDomain") }, check: { $0.checkUserInfo(&$1) })
        case .locale:
            Definition(classNames: ["NSLocale"], fields: [
                Field("NS.identifier", .stringReference, required: true, accepts: Self.strings),
            ], json: .referencedString("NS.identifier"),
                       reads: { archive, uid, _ in archive.hasReferencedString(uid, "NS.identifier") })
        case .timeZone:
            Definition(classNames: ["NSTimeZone"], fields: [
                Field("NS.name", .stringReference, required: true, accepts: Self.strings),
                Field("NS.data", .dataReference, required: true, accepts: Self.datas),
            ], json: .referencedString("NS.name"),
                       reads: { archive, uid, _ in archive.hasReferencedString(uid, "NS.name") }, check: { $0.checkTimeZone(&$1) })
        case .dateInterval:
            // Foundation writes both ends as NSDate (not a duration).
            Definition(classNames: ["NSDateInterval"], fields: [
                Field("NS.startDate", .reference, required: true, accepts: ["NSDate"], json: .reference("start")),
                Field("NS.endDate", .reference, required: true, accepts: ["NSDate"], json: .reference("end")),
            ], json: .members, check: { $0.checkDateInterval(&$1) })
        case .location:
            // CoreLocation, not Foundation: corelibs cannot write it, so its fixtures are hand-built
            // with the field names Apple's CLLocation writes (and iLEAPP reads).
            Definition(classNames: ["CLLocation"], fields: [
                Field("kCLLocationCodingKeyCoordinateLatitude", .finiteNumber, required: true, json: .scalar("latitude")),
                Field("kCLLocationCodingKeyCoordinateLongitude", .finiteNumber, required: true, json: .scalar("longitude")),
                Field("kCLLocationCodingKeyAltitude", .finiteNumber, json: .scalar("altitude")),
                Field("kCLLocationCodingKeyHorizontalAccuracy", .finiteNumber, json: .scalar("horizontalAccuracy")),
                Field("kCLLocationCodingKeyVerticalAccuracy", .finiteNumber, json: .scalar("verticalAccuracy")),
                Field("kCLLocationCodingKeyCourse", .finiteNumber, json: .scalar("course")),
                Field("kCLLocationCodingKeyCourseAccuracy", .finiteNumber, json: .scalar("courseAccuracy")),
                Field("kCLLocationCodingKeySpeed", .finiteNumber, json: .scalar("speed")),
                Field("kCLLocationCodingKeySpeedAccuracy", .finiteNumber, json: .scalar("speedAccuracy")),
                Field("kCLLocationCodingKeyTimestamp", .finiteNumber, json: .scalarDate("timestamp")),
            ], json: .members, group: .coreLocation)
        case .indexPath:
            // corelibs' and Apple's layout: the length, then one inline index (length 1) or the
            // indexes as varints in data (length 2 or more); the shape check has the rules.
            Definition(classNames: ["NSIndexPath"], fields: [
                Field("NSIndexPathLength", .integer, required: true),
                Field("NSIndexPathValue", .integer),
                Field("NSIndexPathData", nil, accepts: Self.datas),
            ], json: .indexes, check: { $0.checkIndexPath(&$1) })
        case .measurement:
            // decodeDouble reads an absent NS.value as 0: required here, so the JSON never shows a
            // null where Foundation has 0.
            Definition(classNames: ["NSMeasurement"], fields: [
                Field("NS.value", .finiteNumber, required: true, json: .scalar("value")),
                Field("NS.unit", .reference, required: true, accepts: Self.unitClassNames, json: .reference("unit")),
            ], json: .members, check: { $0.checkMeasurement(&$1) })
        case .unit:
            // NSUnit has a symbol; its dimensions (NSUnitLength …) a converter as well (the shape
            // check has the rule). The dimension class is the `$classname`, not a JSON member.
            Definition(classNames: Self.unitClassNames.sorted(), fields: [
                Field("NS.symbol", .stringReference, required: true, accepts: Self.strings, json: .reference("symbol")),
                Field("NS.converter", .reference, accepts: ["NSUnitConverterLinear"], json: .reference("converter")),
            ], json: .members, check: { $0.checkConverter(&$1) }, shownInAnotherForm: ["NS.specifier"])
        case .unitConverter:
            // decodeDouble reads an absent value as 0: both required (see NS.value).
            Definition(classNames: ["NSUnitConverterLinear"], fields: [
                Field("NS.coefficient", .finiteNumber, required: true, json: .scalar("coefficient")),
                Field("NS.constant", .finiteNumber, required: true, json: .scalar("constant")),
            ], json: .members)
        case .affineTransform:
            // Apple's layout (-[NSAffineTransform encodeWithCoder:] in Foundation): big-endian
            // float32s in inline bytes, 0, 9, 16 or 24 of them (KeyedArchive+AffineTransform).
            // corelibs writes a `$0` array Apple's decoder ignores: refused by the shape check.
            Definition(classNames: ["NSAffineTransform"], fields: [
                Field("NSTransformStruct", .inlineData),
            ], json: .transform, check: { $0.checkAffineTransform(&$1) })
        case .color:
            // UIKit, not Foundation: corelibs cannot write it, so its fixtures are hand-built with the
            // field names of UIKitCore's -[UIColor encodeWithCoder:] (KeyedArchive+Color has the rules).
            // AppKit's NSColor writes the same NSColorSpace and NSRGB/NSWhite text for RGB and white.
            Definition(classNames: ["UIColor", "NSColor"], fields: [
                Field("NSColorSpace", .integer, required: true),
                Field("NSRGB", .inlineData),
                Field("NSWhite", .inlineData),
                Field("UISystemColorName", .stringReference, accepts: Self.strings),
                Field("UIColorComponentCount", .integer),
                // AppKit: CMYK text, a catalog color's names and fallback, and the components and
                // color space object of a color in a custom space (docs/FOUNDATION-LAYOUTS.md).
                Field("NSCMYK", .inlineData),
                Field("NSCatalogName", .stringReference, accepts: Self.strings),
                Field("NSColorName", .stringReference, accepts: Self.strings),
                Field("NSColor", .reference, accepts: ["NSColor"]),
                Field("NSComponents", .inlineData),
                Field("NSCustomColorSpace", .reference, accepts: ["NSColorSpace"]),
            ], json: .color, group: .uikitValues, check: { $0.checkColor(&$1) },
                       // UIKit's components, each as a float and (newer systems) a double.
                       ruleKeys: ["UIRed", "UIGreen", "UIBlue", "UIAlpha", "UIWhite"].flatMap { [$0, $0 + "-Double"] })
        case .dateComponents:
            // Foundation reads every component with decodeInteger (absent = 0, not "undefined"),
            // so all are required; NSDateComponentUndefined (Int.max) renders as null. The shape
            // check wants NS.isLeapMonth an inline boolean.
            Definition(classNames: ["NSDateComponents"], fields: [
                Field("NS.calendar", .reference, accepts: ["NSCalendar"], json: .reference("calendar")),
                Field("NS.timezone", .reference, accepts: ["NSTimeZone"], json: .reference("timeZone")),
                Field("NS.era", .integer, required: true, json: .component("era")),
                Field("NS.year", .integer, required: true, json: .component("year")),
                Field("NS.quarter", .integer, required: true, json: .component("quarter")),
                Field("NS.month", .integer, required: true, json: .component("month")),
                Field("NS.day", .integer, required: true, json: .component("day")),
                Field("NS.hour", .integer, required: true, json: .component("hour")),
                Field("NS.minute", .integer, required: true, json: .component("minute")),
                Field("NS.second", .integer, required: true, json: .component("second")),
                Field("NS.nanosec", .integer, required: true, json: .component("nanosecond")),
                Field("NS.weekOfYear", .integer, required: true, json: .component("weekOfYear")),
                Field("NS.weekOfMonth", .integer, required: true, json: .component("weekOfMonth")),
                Field("NS.yearForWOY", .integer, required: true, json: .component("yearForWeekOfYear")),
                Field("NS.weekday", .integer, required: true, json: .component("weekday")),
                Field("NS.weekdayOrdinal", .integer, required: true, json: .component("weekdayOrdinal")),
                Field("NS.isLeapMonth", nil, json: .scalar("isLeapMonth")),
            ], json: .members, check: { $0.checkDateComponents(&$1) })
        case .calendar:
            // Rendered as its identifier (like NSLocale); the other fields are checked, not shown.
            Definition(classNames: ["NSCalendar"], fields: [
                Field("NS.identifier", .stringReference, required: true, accepts: Self.strings),
                Field("NS.timezone", .reference, accepts: ["NSTimeZone"]),
                Field("NS.locale", .reference, required: true, accepts: ["NSLocale"]),
                Field("NS.firstwkdy", .integer, required: true),
                Field("NS.mindays", .integer, required: true),
                Field("NS.gstartdate", .reference, accepts: ["NSDate"]),
            ], json: .referencedString("NS.identifier"),
                       reads: { archive, uid, _ in archive.hasReferencedString(uid, "NS.identifier") }, check: { $0.checkCalendar(&$1) })
        case .personNameComponents:
            // Every part is optional; Foundation writes an absent one as `$null`. Apple's Foundation
            // keeps the parts in a private `_NSPersonNameComponentsData` (same keys) under
            // `NS.nameComponentsPrivate`; the plain JSON then shows that object's parts.
            Definition(classNames: ["NSPersonNameComponents", "_NSPersonNameComponentsData"], fields: [
                Field("NS.nameComponentsPrivate", .reference, accepts: ["_NSPersonNameComponentsData"]),
                Field("NS.namePrefix", .reference, accepts: Self.strings, json: .reference("namePrefix")),
                Field("NS.givenName", .reference, accepts: Self.strings, json: .reference("givenName")),
                Field("NS.middleName", .reference, accepts: Self.strings, json: .reference("middleName")),
                Field("NS.familyName", .reference, accepts: Self.strings, json: .reference("familyName")),
                Field("NS.nameSuffix", .reference, accepts: Self.strings, json: .reference("nameSuffix")),
                Field("NS.nickname", .reference, accepts: Self.strings, json: .reference("nickname")),
                Field("NS.phoneticRepresentation", .reference, accepts: ["NSPersonNameComponents"],
                      json: .reference("phoneticRepresentation")),
            ], json: .members)
        case .hashTable:
            // Apple's layout, numbered fields only (KeyedArchive+PointerCollections has the rules);
            // corelibs has no such class, so fixtures are hand-built with Apple's field names.
            Definition(classNames: ["NSHashTable"], fields: [], json: .array, group: .pointerCollections,
                       reads: { archive, uid, _ in archive.hasPointerCollection(uid, as: .hashTable) }, check: { $0.checkPointerCollection(&$1) })
        case .mapTable:
            Definition(classNames: ["NSMapTable"], fields: [], json: .dictionary, group: .pointerCollections,
                       reads: { archive, uid, _ in archive.hasPointerCollection(uid, as: .mapTable) }, check: { $0.checkPointerCollection(&$1) })
        case .pointerArray:
            Definition(classNames: ["NSPointerArray"], fields: [], json: .array, group: .pointerCollections,
                       reads: { archive, uid, _ in archive.hasPointerCollection(uid, as: .pointerArray) }, check: { $0.checkPointerCollection(&$1) })
        case .font:
            // UIKit's -[UIFont encodeWithCoder:] (iOS 18, decompiled) writes NSName and NSSize beside
            // its own UIFontName and UIFontPointSize; AppKit's NSFont writes NSName and NSSize. The
            // UIFont fields are kept (checked) so a sanitized UIFont still decodes on iOS.
            Definition(classNames: ["UIFont", "NSFont"], fields: [
                Field("NSName", .stringReference, required: true, accepts: Self.strings, json: .reference("name")),
                Field("NSSize", .finiteNumber, required: true, json: .scalar("size")),
                Field("UIFontName", .stringReference, accepts: Self.strings),
                Field("UIFontPointSize", .finiteNumber),
                Field("UIFontTraits", .integer),
                // AppKit's font flags (NSFont writes them in every nib).
                Field("NSfFlags", .integer, json: .scalar("flags")),
            ], json: .members, group: .uikitValues)
        case .paragraphStyle:
            // The keys -[NSParagraphStyle initWithCoder:] (UIFoundation, iOS 18, decompiled) reads with
            // decodeInteger/decodeDouble; archivers write only the non-zero ones. Integers as archived
            // (NSAlignment is the archive's alignment number). Tab stops and text lists are not read.
            Definition(classNames: ["NSParagraphStyle", "NSMutableParagraphStyle"], fields: [
                Field("NSAlignment", .integer, json: .defaulted("alignment")),
                Field("NSLineBreakMode", .integer, json: .defaulted("lineBreakMode")),
                Field("NSWritingDirection", .integer, json: .defaulted("writingDirection")),
                Field("NSLineSpacing", .finiteNumber, json: .defaulted("lineSpacing")),
                Field("NSParagraphSpacing", .finiteNumber, json: .defaulted("paragraphSpacing")),
                Field("NSParagraphSpacingBefore", .finiteNumber, json: .defaulted("paragraphSpacingBefore")),
                Field("NSHeadIndent", .finiteNumber, json: .defaulted("headIndent")),
                Field("NSFirstLineHeadIndent", .finiteNumber, json: .defaulted("firstLineHeadIndent")),
                Field("NSTailIndent", .finiteNumber, json: .defaulted("tailIndent")),
                Field("NSMinLineHeight", .finiteNumber, json: .defaulted("minimumLineHeight")),
                Field("NSMaxLineHeight", .finiteNumber, json: .defaulted("maximumLineHeight")),
                Field("NSLineHeightMultiple", .finiteNumber, json: .defaulted("lineHeightMultiple")),
                // AppKit also writes the tab stops (an array of NSTextTab) and truncation tightening.
                Field("NSTabStops", .reference, accepts: ["NSArray", "NSMutableArray"], json: .reference("tabStops")),
                Field("NSAllowsTighteningForTruncation", nil, json: .scalar("allowsDefaultTighteningForTruncation")),
                Field("NSTighteningFactorForTruncation", .finiteNumber, json: .scalar("tighteningFactorForTruncation")),
            ], json: .members, group: .uikitValues)
        }
    }
}

extension FoundationShape {
    /// Foundation classes that are only ever written inline (a plist scalar in `$objects`): an
    /// instance dictionary of one is nothing Foundation decodes.
    static let inlineOnlyClassNames: Set<String> = ["NSNumber"]

    /// `definition` of every shape, by `ordinal`, built once.
    static let definitionsByOrdinal: [Definition] = byOrdinal.map(\.definition)

    /// Every definition's `reads`, by `ordinal`: the shape decision asks it of every object.
    static let readersByOrdinal: [LayoutReader?] = definitionsByOrdinal.map(\.reads)

    /// Every definition's `check`, by `ordinal`.
    static let rulesByOrdinal: [ShapeRule?] = definitionsByOrdinal.map(\.check)

    /// A field Foundation may hold by reference: followed by the walk, its class checked.
    struct ReferenceField {
        let key: StaticString
        /// The exact `$classname`s Foundation accepts there (the walk turns them into a class set).
        let accepts: Set<String>
        /// The member name in the plain JSON; nil when it renders inside the parent's value.
        let jsonName: StaticString?
    }

    /// The referenced fields of every shape, by `ordinal`: the table's fields with `accepts`.
    static let referenceFieldsByOrdinal: [[ReferenceField]] = definitionsByOrdinal.map { definition in
        definition.fields.compactMap { field in
            field.accepts.map { accepts in
                let name: StaticString? = if case .reference(let name) = field.json { name } else { nil }
                return ReferenceField(key: field.key, accepts: accepts, jsonName: name)
            }
        }
    }

    var referenceFields: [ReferenceField] { Self.referenceFieldsByOrdinal[ordinal] }

    /// The table's fields, for the shape check.
    var fields: [Field] { Self.definitionsByOrdinal[ordinal].fields }

    /// The table's JSON form.
    var jsonForm: JSONForm { Self.definitionsByOrdinal[ordinal].json }
}
