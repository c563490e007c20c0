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
///
/// Every edge of an archive goes through `next()`, so the cursor is kept cheap: its state is
/// plain integers plus the archive (one reference), what only rare objects need (elements listed
/// by `NS.object.N` fields or a pointer collection's members, an attributed string's runs) sits
/// in one optional box, and `next()` is inlined into each reader with the steps of the common
/// readings (fields, collection elements, dictionary entries) in line and the rest out of line.
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

    private enum Phase: UInt8 {
        case fields, inlineElements, elements, entries, referenceFields, runs, done
    }

    /// What only rare objects need: elements or entries not held in `NS.objects`/`NS.keys`
    /// arrays, and an attributed string's runs and text.
    private final class Extras {
        /// A collection's elements, or a dictionary's keys, when `first.start` is -1.
        var first: [KeyedArchive.CollectionElement] = []
        /// A dictionary's values, when `second.start` is -1.
        var second: [KeyedArchive.CollectionElement] = []
        var runs: [KeyedArchive.AttributeRun] = []
        var attributedText: [UInt16] = []
    }

    /// Where a sequence of references is: the UID elements of an array at `references[start...]`
    /// held in field pair `pair` (start -1: listed in `Extras` instead).
    private struct Span {
        var start = 0
        var pair = 0

        init() {}

        init(_ layout: CollectionLayout, numbered: inout [KeyedArchive.CollectionElement]) {
            switch layout {
            case .objects(let pair, let start, _):
                self.start = start
                self.pair = pair
            case .numbered(let elements):
                start = -1
                numbered = elements
            }
        }
    }

    private let archive: KeyedArchive
    private let uid: Int
    private var phase: Phase
    private let shape: FoundationShape?
    /// Whether a dictionary's keys are all strings (`DictionaryLayout.stringKeys`).
    private var stringKeys = false
    /// False when the object's Foundation layout does not read (no elements, entries or runs were
    /// found where the shape needs them); `shape(of:)` never chose such a shape, so readers treat
    /// it as malformed.
    private(set) var reads = true
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
    /// An inline array's or a collection's elements, or a dictionary's keys; a dictionary's values.
    private var first = Span()
    private var second = Span()
    private var extras: Extras?
    /// A collection's elements, a dictionary's entries or an attributed string's runs; 0 otherwise.
    private(set) var count = 0

    /// An attributed string's text in UTF-16 units, which its runs' `start` and `length` index.
    var attributedText: [UInt16] { extras?.attributedText ?? [] }

    init(_ archive: KeyedArchive, uid: Int, shape: FoundationShape?, layouts: inout LayoutMemo) {
        self.archive = archive
        self.uid = uid
        self.shape = shape
        phase = .fields
        // One exit, the layouts read by the helpers below: an early return here made the compiler
        // build the cursor aside and copy it out.
        switch shape?.jsonForm {
        case nil:
            let index = archive.plistIndex(of: uid)
            pairCount = archive.plist.count(of: index)
            pairsStart = archive.plist.referencesStart(of: index)
        case .array?:
            phase = .elements
            enterCollection(layouts.collection(uid, in: archive))
        case .dictionary?:
            phase = .entries
            enterDictionary(layouts.dictionary(uid, in: archive))
        case .attributedRuns?:
            // The text field, then the runs; `NSAttributes` and `NSAttributeInfo` are the run table
            // (read by `attributedRuns`), not edges of their own.
            phase = .referenceFields
            position = FoundationShape.attributedTextField
            end = position + 1
            enterRuns(archive.attributedRuns(uid))
        case .some:
            phase = .referenceFields
            end = shape?.referenceFields.count ?? 0
        }
    }

    private mutating func enterCollection(_ collection: CollectionLayout?) {
        guard let collection else {
            reads = false
            return
        }
        end = collection.count
        count = end
        var numbered: [KeyedArchive.CollectionElement] = []
        first = Span(collection, numbered: &numbered)
        if first.start < 0 {
            let extras = Extras()
            extras.first = numbered
            self.extras = extras
        }
    }

    private mutating func enterDictionary(_ dictionary: DictionaryLayout?) {
        guard let dictionary else {
            reads = false
            return
        }
        end = dictionary.keys.count
        count = end
        stringKeys = dictionary.stringKeys
        var keys: [KeyedArchive.CollectionElement] = []
        var values: [KeyedArchive.CollectionElement] = []
        first = Span(dictionary.keys, numbered: &keys)
        second = Span(dictionary.values, numbered: &values)
        if first.start < 0 || second.start < 0 {
            let extras = Extras()
            extras.first = keys
            extras.second = values
            self.extras = extras
        }
    }

    private mutating func enterRuns(_ reading: KeyedArchive.AttributedRunsReading) {
        guard case .success(let units, let runs) = reading else {
            reads = false
            return
        }
        let extras = Extras()
        extras.attributedText = units
        extras.runs = runs
        self.extras = extras
        count = runs.count
    }

    init(_ archive: KeyedArchive, uid: Int, inlineArray value: Int, pair: Int) {
        self.archive = archive
        self.uid = uid
        shape = nil
        phase = .fields
        enterInlineElements(value, pair: pair)
    }

    /// Run `index` of an attributed string: the UTF-16 units of `attributedText` it covers.
    func run(_ index: Int) -> (start: Int, length: Int) {
        guard let runs = extras?.runs else { return (0, 0) }
        return (runs[index].start, runs[index].length)
    }

    /// The field last yielded has no references to list: the reader dealt with it.
    mutating func skipField() {
        pendingValue = -1
    }

    @inline(__always)
    mutating func next() -> Event? {
        switch phase {
        case .fields:
            // A field whose value is not a reference: the next field, in line.
            if pendingValue < 0, pair < pairCount {
                let current = pair
                let key = Int(archive.plist.references[pairsStart + 2 * current])
                if !archive.plist.stringEquals(key, "$class") {
                    pair += 1
                    pendingPair = current
                    pendingValue = Int(archive.plist.references[pairsStart + 2 * current + 1])
                    return .field(pair: current, key: key, value: pendingValue)
                }
            }
        case .elements:
            if position < end, first.start >= 0 {
                let current = position
                position += 1
                return .edge(ObjectEdge(.element, position: current, target: firstTarget(current),
                                        site: ReferenceSite(uid: uid, pair: first.pair, element: current)))
            }
        case .entries:
            if position < end, first.start >= 0, second.start >= 0 {
                let current = position
                position += 1
                let keyUID = firstTarget(current)
                let stringKey = stringKeys ? keyUID : -1
                return .entry(key: ObjectEdge(.dictionaryKey, position: current, target: keyUID,
                                              site: ReferenceSite(uid: uid, pair: first.pair, element: current), stringKey: stringKey),
                              value: ObjectEdge(.dictionaryValue, position: current,
                                                target: archive.plist.uidValue(ofReference: archive.plist.references[second.start + current]),
                                                site: ReferenceSite(uid: uid, pair: second.pair, element: current), stringKey: stringKey))
            }
        case .done:
            return nil
        default:
            break
        }
        return nextOutOfLine()
    }

    @inline(__always)
    private func firstTarget(_ position: Int) -> Int {
        archive.plist.uidValue(ofReference: archive.plist.references[first.start + position])
    }

    /// `next()`'s other steps: a field's references, the end of the fields, numbered elements and
    /// entries, reference fields and runs.
    @inline(never)
    private mutating func nextOutOfLine() -> Event? {
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
                guard pair < pairCount else { return finish() }
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
                let element = archive.plist.references[first.start + current]
                guard archive.plist.kind(of: Int(element)) == .uid else { return .inlineElement(position: current, value: Int(element)) }
                return .edge(ObjectEdge(.fieldElement, target: archive.plist.uidValue(ofReference: element),
                                        site: ReferenceSite(uid: uid, pair: first.pair, element: current)))
            case .elements:
                guard position < end, let extras else { return finish() }
                let current = position
                position += 1
                return .edge(ObjectEdge(.element, position: current, target: extras.first[current].target, site: extras.first[current].site))
            case .entries:
                guard position < end else { return finish() }
                let current = position
                position += 1
                let key = element(current, of: first, numbered: extras?.first ?? [])
                let value = element(current, of: second, numbered: extras?.second ?? [])
                let stringKey = stringKeys ? key.target : -1
                return .entry(key: ObjectEdge(.dictionaryKey, position: current, target: key.target, site: key.site, stringKey: stringKey),
                              value: ObjectEdge(.dictionaryValue, position: current, target: value.target, site: value.site, stringKey: stringKey))
            case .referenceFields:
                guard position < end, let shape else {
                    // An attributed string's runs follow its text field.
                    if shape == .attributedString {
                        phase = .runs
                        position = 0
                        end = extras?.runs.count ?? 0
                        continue
                    }
                    return finish()
                }
                let current = position
                position += 1
                if let edge = archive.referenceFieldEdge(of: uid, shape: shape, index: current) { return .edge(edge) }
            case .runs:
                guard position < end, let runs = extras?.runs else { return finish() }
                let current = position
                position += 1
                return .edge(ObjectEdge(.runAttributes, position: current, target: runs[current].attributes.target,
                                        site: runs[current].attributes.site))
            case .done:
                return nil
            }
        }
    }

    /// Element `position` of a sequence held in an array field or listed in `numbered`.
    private func element(_ position: Int, of sequence: Span, numbered: [KeyedArchive.CollectionElement]) -> KeyedArchive.CollectionElement {
        guard sequence.start >= 0 else { return numbered[position] }
        return KeyedArchive.CollectionElement(target: archive.plist.uidValue(ofReference: archive.plist.references[sequence.start + position]),
                                              site: ReferenceSite(uid: uid, pair: sequence.pair, element: position))
    }

    private mutating func enterInlineElements(_ value: Int, pair: Int) {
        phase = .inlineElements
        first.pair = pair
        first.start = archive.plist.referencesStart(of: value)
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
