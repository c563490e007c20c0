/// The plain fields Foundation's own `initWithCoder:` decodes for each shape: their plist kinds,
/// lengths and whether the decoder requires them. Read by the shape check; the referenced ones are
/// also `referenceFields` (with the classes accepted there). Collections, dictionaries, strings and
/// the compact encodings (NSValue, NSDecimalNumber, NSIndexSet) have rules of their own in
/// `KeyedArchive+ShapeCheck`.
extension FoundationShape {
    /// What a field must hold.
    enum FieldKind {
        /// A UID of a string object (inline string or NSString instance), not `$null`.
        case stringReference
        /// Inline data in the object's own dictionary (Foundation reads it as a property-list value).
        case inlineData
        /// Data inline or by reference; `bytes` is the exact length when Foundation checks one.
        case data(bytes: Int?)
        /// An integer, inline or a UID of an inline integer.
        case integer
        /// A finite integer or real, inline or a UID of one.
        case finiteNumber
        /// A UID (the class found there is checked by the walk against `referenceFields`).
        case reference
    }

    struct FieldSpec {
        let key: StaticString
        let kind: FieldKind
        let required: Bool
    }

    /// `fieldSpecs` of every shape, by `ordinal`, built once.
    static let fieldSpecsByOrdinal: [[FieldSpec]] = allCases.map(\.computedFieldSpecs)

    var fieldSpecs: [FieldSpec] { Self.fieldSpecsByOrdinal[ordinal] }

    private var computedFieldSpecs: [FieldSpec] {
        switch self {
        case .data:
            [FieldSpec(key: "NS.data", kind: .inlineData, required: true)]
        case .date:
            [FieldSpec(key: "NS.time", kind: .finiteNumber, required: true)]
        case .uuid:
            [FieldSpec(key: "NS.uuidbytes", kind: .data(bytes: 16), required: true)]
        case .url:
            [FieldSpec(key: "NS.relative", kind: .stringReference, required: true),
             FieldSpec(key: "NS.base", kind: .reference, required: false)]
        case .locale:
            [FieldSpec(key: "NS.identifier", kind: .stringReference, required: true)]
        case .timeZone:
            [FieldSpec(key: "NS.name", kind: .stringReference, required: true)]
        case .error:
            [FieldSpec(key: "NSDomain", kind: .stringReference, required: true),
             FieldSpec(key: "NSCode", kind: .integer, required: true),
             FieldSpec(key: "NSUserInfo", kind: .reference, required: false)]
        case .attributedString:
            [FieldSpec(key: "NSString", kind: .stringReference, required: true),
             FieldSpec(key: "NSAttributes", kind: .reference, required: false),
             FieldSpec(key: "NSAttributeInfo", kind: .data(bytes: nil), required: false)]
        case .string, .array, .set, .orderedSet, .dictionary, .null, .value, .decimalNumber, .indexSet:
            []
        }
    }
}
