/// The one enumeration of an object's outgoing edges. What an object refers to, in which order,
/// with which site and JSON-pointer step, is decided here and nowhere else: the policy walk
/// follows these edges, the plain renderer writes them, the shape check and the DOT export read
/// them. An object is read one of two ways:
///
/// - **field by field** (`shape` nil: a custom class, or any instance in the stored graph): each
///   field but `$class`, in archive order, then its references — the field's UID, or the UID
///   elements of an array or set held inline in it;
/// - **through its Foundation shape** (`KeyedArchive.shape(of:layouts:)` chose it): a collection's
///   elements, a dictionary's entries (key, value), an attributed string's text field and each
///   run's attribute dictionary, and for every other form the shape's reference fields
///   (`FoundationShape.referenceFields`) that hold a UID.
extension KeyedArchive {
    /// The edges of object `uid`, read through `shape` (nil: field by field), in document order.
    /// Collection and dictionary layouts are read through `layouts` (`ShapeMemo.layouts`).
    func edges(of uid: Int, shape: FoundationShape?, layouts: inout LayoutMemo) -> EdgeCursor {
        EdgeCursor(self, uid: uid, shape: shape, layouts: &layouts)
    }

    /// The edges of object `uid` read field by field (the stored graph, whatever its class).
    func fieldEdges(of uid: Int) -> EdgeCursor {
        var layouts = LayoutMemo()
        return EdgeCursor(self, uid: uid, shape: nil, layouts: &layouts)
    }

    /// The elements of the array or set held inline in field pair `pair` (plist index `value`) of
    /// instance `uid`: the `.fieldEdge` and `.inlineElement` events a field-by-field reading yields
    /// after that field.
    func inlineElements(of uid: Int, pair: Int, value: Int) -> EdgeCursor {
        EdgeCursor(self, uid: uid, inlineArray: value, pair: pair)
    }

    /// The edge reference field `index` of `shape` makes from object `uid`, or nil when the field is
    /// absent or holds no UID (`.members` forms render that as `null`).
    func referenceFieldEdge(of uid: Int, shape: FoundationShape, index: Int) -> ObjectEdge? {
        let object = plistIndex(of: uid)
        guard let pair = plist.dictionaryPairIndex(object, forKey: FoundationShape.referenceFieldsByOrdinal[shape.ordinal][index].key),
              let target = referencedUID(plist.dictionaryValue(object, pair: pair)) else { return nil }
        return ObjectEdge(.referenceField, position: index, target: target, site: ReferenceSite(uid: uid, pair: pair), shape: shape)
    }
}

/// The edges of one object, one `next()` at a time (`KeyedArchive.edges(of:shape:layouts:)`).
/// Pulled rather than pushed, so each reader keeps its own loop and state: the walk checks a
/// field's key before its references are listed and may `skipField()`, the renderer writes keys
/// and inline values between the edges.
struct EdgeCursor {
    /// One step of the enumeration.
    enum Event {
        /// Field pair `pair` of an instance read field by field (never `$class`): its key's and its
        /// value's plist indices. Its references follow unless the reader calls `skipField()`.
        case field(pair: Int, key: Int, value: Int)
        /// A reference.
        case edge(ObjectEdge)
        /// Dictionary entry `position`: its key's edge and its value's, together, since a reader
        /// refusing one refuses the entry.
        case entry(key: ObjectEdge, value: ObjectEdge)
        /// Element `position` of an inline array or set field that is not a reference (plist index
        /// `value`): renderers write it, the walk has nothing to follow.
        case inlineElement(position: Int, value: Int)
    }

    private enum Phase {
        case fields, inlineElements, elements, entries, referenceFields, runs, done
    }

    private let archive: KeyedArchive
    private let uid: Int
    private var phase: Phase
    /// Fields: the pair next read, the pair count, where the instance's keys and values start; the
    /// value of the field last yielded (its references come next), -1 when none or skipped.
    private var pair = 0
    private var pairCount = 0
    private var pairsStart = 0
    private var pendingPair = 0
    private var pendingValue = -1
    /// Inline array elements, collection elements, dictionary entries, reference fields or runs:
    /// the next position and the end.
    private var position = 0
    private var end = 0
    private var inlinePair = 0
    private var inlineStart = 0
    private var collection: CollectionLayout?
    private var dictionary: DictionaryLayout?
    private var shape: FoundationShape?
    private var runs: [KeyedArchive.AttributeRun] = []
    /// An attributed string's text in UTF-16 units, which its runs' `start` and `length` index.
    private(set) var attributedText: [UInt16] = []
    /// A collection's elements, a dictionary's entries or an attributed string's runs; 0 otherwise.
    private(set) var count = 0
    /// False when the object's Foundation layout does not read (no elements, entries or runs were
    /// found where the shape needs them); `shape(of:)` never chose such a shape, so readers treat
    /// it as malformed.
    private(set) var reads = true

    init(_ archive: KeyedArchive, uid: Int, shape: FoundationShape?, layouts: inout LayoutMemo) {
        self.archive = archive
        self.uid = uid
        self.shape = shape
        guard let shape else {
            phase = .fields
            let index = archive.plistIndex(of: uid)
            pairCount = archive.plist.count(of: index)
            pairsStart = archive.plist.referencesStart(of: index)
            return
        }
        switch shape.jsonForm {
        case .array:
            phase = .elements
            collection = layouts.collection(uid, in: archive)
            end = collection?.count ?? 0
            count = end
            reads = collection != nil
        case .dictionary:
            phase = .entries
            dictionary = layouts.dictionary(uid, in: archive)
            end = dictionary?.keys.count ?? 0
            count = end
            reads = dictionary != nil
        case .attributedRuns:
            // The text field, then the runs; `NSAttributes` and `NSAttributeInfo` are the run table
            // (read by `attributedRuns`), not edges of their own.
            phase = .referenceFields
            position = FoundationShape.attributedTextField
            end = position + 1
            if case .success(let units, let runs) = archive.attributedRuns(uid) {
                attributedText = units
                self.runs = runs
                count = runs.count
            } else {
                reads = false
            }
        default:
            phase = .referenceFields
            end = shape.referenceFields.count
        }
    }

    init(_ archive: KeyedArchive, uid: Int, inlineArray value: Int, pair: Int) {
        self.archive = archive
        self.uid = uid
        phase = .fields
        enterInlineElements(value, pair: pair)
    }

    /// Run `index` of an attributed string: the UTF-16 units of `attributedText` it covers.
    func run(_ index: Int) -> (start: Int, length: Int) {
        (runs[index].start, runs[index].length)
    }

    /// The field last yielded has no references to list: the reader dealt with it.
    mutating func skipField() {
        pendingValue = -1
    }

    mutating func next() -> Event? {
        while true {
            switch phase {
            case .fields:
                if pendingValue >= 0 {
                    let value = pendingValue
                    pendingValue = -1
                    switch archive.plist.kind(of: value) {
                    case .uid:
                        return .edge(ObjectEdge(.field, target: archive.plist.uidValue(at: value), site: ReferenceSite(uid: uid, pair: pendingPair)))
                    case .array, .set:
                        enterInlineElements(value, pair: pendingPair)
                    default:
                        break
                    }
                    continue
                }
                guard pair < pairCount else {
                    phase = .done
                    return nil
                }
                let current = pair
                pair += 1
                let key = Int(archive.plist.references[pairsStart + 2 * current])
                if archive.plist.stringEquals(key, "$class") { continue }
                pendingPair = current
                pendingValue = Int(archive.plist.references[pairsStart + 2 * current + 1])
                return .field(pair: current, key: key, value: pendingValue)
            case .inlineElements:
                guard position < end else {
                    phase = .fields
                    continue
                }
                let current = position
                position += 1
                let element = archive.plist.references[inlineStart + current]
                guard archive.plist.kind(of: Int(element)) == .uid else { return .inlineElement(position: current, value: Int(element)) }
                return .edge(ObjectEdge(.fieldElement, target: archive.plist.uidValue(ofReference: element),
                                        site: ReferenceSite(uid: uid, pair: inlinePair, element: current)))
            case .elements:
                guard position < end, let collection else { return finish() }
                let current = position
                position += 1
                return .edge(ObjectEdge(.element, position: current, target: collection.target(at: current, in: archive),
                                        site: collection.site(at: current, uid: uid)))
            case .entries:
                guard position < end, let dictionary else { return finish() }
                let current = position
                position += 1
                let keyUID = dictionary.keys.target(at: current, in: archive)
                let stringKey = dictionary.stringKeys ? keyUID : -1
                let key = ObjectEdge(.dictionaryKey, position: current, target: keyUID, site: dictionary.keys.site(at: current, uid: uid),
                                     stringKey: stringKey)
                let value = ObjectEdge(.dictionaryValue, position: current, target: dictionary.values.target(at: current, in: archive),
                                       site: dictionary.values.site(at: current, uid: uid), stringKey: stringKey)
                return .entry(key: key, value: value)
            case .referenceFields:
                guard position < end, let shape else {
                    // An attributed string's runs follow its text field.
                    if shape == .attributedString {
                        phase = .runs
                        position = 0
                        end = runs.count
                        continue
                    }
                    return finish()
                }
                let current = position
                position += 1
                if let edge = archive.referenceFieldEdge(of: uid, shape: shape, index: current) { return .edge(edge) }
            case .runs:
                guard position < end else { return finish() }
                let current = position
                position += 1
                return .edge(ObjectEdge(.runAttributes, position: current, target: runs[current].attributes.target,
                                        site: runs[current].attributes.site))
            case .done:
                return nil
            }
        }
    }

    private mutating func enterInlineElements(_ value: Int, pair: Int) {
        phase = .inlineElements
        inlinePair = pair
        inlineStart = archive.plist.referencesStart(of: value)
        position = 0
        end = archive.plist.count(of: value)
    }

    private mutating func finish() -> Event? {
        phase = .done
        return nil
    }
}

extension FoundationShape {
    /// NSAttributedString's text field (`NSString`) and run table (`NSAttributes`), by position in
    /// its `referenceFields`.
    static let attributedTextField = attributedStringField("NSString")
    static let attributesField = attributedStringField("NSAttributes")

    private static func attributedStringField(_ key: String) -> Int {
        FoundationShape.attributedString.referenceFields.firstIndex { $0.key.description == key } ?? 0
    }
}
