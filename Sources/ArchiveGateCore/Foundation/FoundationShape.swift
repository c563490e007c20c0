/// The Foundation classes whose keyed encoding ArchiveGate understands, so that they render as
/// natural JSON and their internal fields are checked against what Foundation itself decodes.
public enum FoundationShape: String, Hashable, Sendable, CaseIterable {
    case string, data, date, array, set, orderedSet, dictionary, null, url, uuid, value
    case attributedString, decimalNumber, indexSet, error, locale, timeZone
    case dateInterval, personNameComponents, location, indexPath, measurement, unit, unitConverter
    case affineTransform, color, dateComponents, calendar
    case hashTable, mapTable, pointerArray, font, paragraphStyle

    /// The shape of the Foundation class with exactly this `$classname`, if any.
    public init?(className: String) {
        guard let shape = Self.byClassName[className] else { return nil }
        self = shape
    }

    /// Every `$classname` with a known shape, from the definitions table.
    public static let byClassName: [String: FoundationShape] = Dictionary(
        uniqueKeysWithValues: allCases.flatMap { shape in shape.definition.classNames.map { ($0, shape) } })

    /// A dense index (position in `allCases`) for per-shape tables.
    public var ordinal: Int {
        switch self {
        case .string: 0
        case .data: 1
        case .date: 2
        case .array: 3
        case .set: 4
        case .orderedSet: 5
        case .dictionary: 6
        case .null: 7
        case .url: 8
        case .uuid: 9
        case .value: 10
        case .attributedString: 11
        case .decimalNumber: 12
        case .indexSet: 13
        case .error: 14
        case .locale: 15
        case .timeZone: 16
        case .dateInterval: 17
        case .personNameComponents: 18
        case .location: 19
        case .indexPath: 20
        case .measurement: 21
        case .unit: 22
        case .unitConverter: 23
        case .affineTransform: 24
        case .color: 25
        case .dateComponents: 26
        case .calendar: 27
        case .hashTable: 28
        case .mapTable: 29
        case .pointerArray: 30
        case .font: 31
        case .paragraphStyle: 32
        }
    }

    /// The shape with this `ordinal`.
    static let byOrdinal: [FoundationShape] = allCases.sorted { $0.ordinal < $1.ordinal }

    /// True for the shapes that render as JSON arrays of their `NS.objects`.
    public var isCollection: Bool {
        if case .array = jsonForm { return true }
        return false
    }

    /// True for the shapes that render as a dictionary (NSDictionary, NSMapTable).
    public var isDictionary: Bool {
        if case .dictionary = jsonForm { return true }
        return false
    }

    /// NSHashTable, NSMapTable, NSPointerArray: members under `$1`, `$2` … (`KeyedArchive+PointerCollections`).
    public var isPointerCollection: Bool {
        self == .hashTable || self == .mapTable || self == .pointerArray
    }
}
