/// The referenced fields Foundation's own `initWithCoder:` decodes for each known shape, with the
/// classes it accepts there and the name the field has in the plain JSON (nil: it renders inside
/// the parent's value). Collections and dictionaries are not listed: their elements are walked
/// through `NS.objects`/`NS.keys`.
extension FoundationShape {
    struct ReferenceField {
        let key: StaticString
        /// The exact `$classname`s Foundation accepts there (the walk turns them into a class set).
        let accepts: Set<String>
        let jsonName: StaticString?
    }

    static let stringClasses: Set<String> = ["NSString", "NSMutableString"]
    static let dataClasses: Set<String> = ["NSData", "NSMutableData"]
    static let numberClasses: Set<String> = ["NSNumber"]

    /// `referenceFields` of every shape, by `ordinal`, built once.
    static let referenceFieldsByOrdinal: [[ReferenceField]] = allCases.map(\.computedReferenceFields)

    var referenceFields: [ReferenceField] { Self.referenceFieldsByOrdinal[ordinal] }

    private var computedReferenceFields: [ReferenceField] {
        switch self {
        case .string:
            [ReferenceField(key: "NS.string", accepts: Self.stringClasses, jsonName: nil),
             ReferenceField(key: "NS.bytes", accepts: Self.dataClasses, jsonName: nil)]
        case .data:
            [ReferenceField(key: "NS.data", accepts: Self.dataClasses, jsonName: nil)]
        case .date:
            [ReferenceField(key: "NS.time", accepts: Self.numberClasses, jsonName: nil)]
        case .url:
            [ReferenceField(key: "NS.base", accepts: ["NSURL"], jsonName: nil),
             ReferenceField(key: "NS.relative", accepts: Self.stringClasses, jsonName: nil)]
        case .value:
            [ReferenceField(key: "NS.pointval", accepts: Self.stringClasses, jsonName: nil),
             ReferenceField(key: "NS.sizeval", accepts: Self.stringClasses, jsonName: nil),
             ReferenceField(key: "NS.rectval", accepts: Self.stringClasses, jsonName: nil),
             ReferenceField(key: "NS.rangeval.location", accepts: Self.numberClasses, jsonName: nil),
             ReferenceField(key: "NS.rangeval.length", accepts: Self.numberClasses, jsonName: nil)]
        case .attributedString:
            [ReferenceField(key: "NSString", accepts: Self.stringClasses, jsonName: "string"),
             ReferenceField(key: "NSAttributes", accepts: ["NSDictionary", "NSMutableDictionary", "NSArray", "NSMutableArray"], jsonName: "attributes"),
             ReferenceField(key: "NSAttributeInfo", accepts: Self.dataClasses, jsonName: nil)]
        case .error:
            [ReferenceField(key: "NSDomain", accepts: Self.stringClasses, jsonName: "domain"),
             ReferenceField(key: "NSUserInfo", accepts: ["NSDictionary", "NSMutableDictionary"], jsonName: "userInfo")]
        case .locale:
            [ReferenceField(key: "NS.identifier", accepts: Self.stringClasses, jsonName: nil)]
        case .timeZone:
            [ReferenceField(key: "NS.name", accepts: Self.stringClasses, jsonName: nil),
             ReferenceField(key: "NS.data", accepts: Self.dataClasses, jsonName: nil)]
        case .decimalNumber:
            [ReferenceField(key: "NS.mantissa", accepts: Self.dataClasses, jsonName: nil)]
        case .indexSet:
            [ReferenceField(key: "NSRangeData", accepts: Self.dataClasses, jsonName: nil)]
        case .uuid:
            [ReferenceField(key: "NS.uuidbytes", accepts: Self.dataClasses, jsonName: nil)]
        case .array, .set, .orderedSet, .dictionary, .null:
            []
        }
    }
}
