/// One outgoing edge of an object: the object referred to, where the reference is stored, and the
/// step it adds to a JSON pointer into the plain JSON. `KeyedArchive.edges(of:shape:layouts:)` lists
/// them; the policy walk, the plain renderer, the shape check and the DOT export read them there.
/// Plain data and small (the step is worked out on demand): the walk and the renderer make one
/// per edge of the archive, and an event carrying two of them was copied twice per step when it
/// held the step itself.
struct ObjectEdge {
    /// What holds the reference.
    enum Kind: Equatable {
        /// A field of an instance read field by field (a custom class; any class in the stored graph).
        case field
        /// An element of an array or set held inline in a field (`site.element` is its position).
        case fieldElement
        /// Element `position` of a collection (NSArray, NSSet, NSOrderedSet, NSHashTable, NSPointerArray).
        case element
        /// The key, or the value, of dictionary entry `position` (NSDictionary, NSMapTable).
        case dictionaryKey
        case dictionaryValue
        /// Reference field `FoundationShape.referenceFields[position]` of a Foundation object.
        case referenceField
        /// The attribute dictionary of run `position` of an attributed string (`EdgeCursor.run(_:)`).
        case runAttributes
    }

    var kind: Kind
    /// The element, entry or run, or the reference field's index in its shape's `referenceFields`;
    /// -1 for the fields of an instance read field by field (their site says where they are).
    var position: Int32
    /// For a dictionary whose keys are all strings, the key's UID (the key is the member name the
    /// value renders under); -1 otherwise.
    var stringKey: Int32
    /// The shape whose reference field this is (`.referenceField` only).
    var shape: FoundationShape?
    /// The UID referred to (0 for `$null`).
    var target: Int
    var site: ReferenceSite

    init(_ kind: Kind, position: Int = -1, target: Int, site: ReferenceSite, stringKey: Int = -1, shape: FoundationShape? = nil) {
        self.kind = kind
        self.position = Int32(truncatingIfNeeded: position)
        self.stringKey = Int32(truncatingIfNeeded: stringKey)
        self.shape = shape
        self.target = target
        self.site = site
    }

    /// The step from the object's JSON value to the target's; `.none` when the target renders
    /// inside the object's own value (NSURL's parts, a string dictionary key).
    var step: PathComponent {
        let position = Int(position)
        switch kind {
        case .field: return .field(uid: Int(site.uid), pair: Int(site.pair))
        case .fieldElement: return .fieldElement(uid: Int(site.uid), pair: Int(site.pair), element: Int(site.element))
        case .element: return .index(position)
        case .dictionaryKey: return stringKey >= 0 ? .none : .pairKey(position)
        case .dictionaryValue: return stringKey >= 0 ? .dictionaryKey(keyUID: Int(stringKey)) : .pairValue(position)
        case .referenceField:
            guard let shape, let name = FoundationShape.referenceFieldsByOrdinal[shape.ordinal][position].jsonName else { return .none }
            return .fixed(name)
        case .runAttributes: return .runAttributes(position)
        }
    }
}
