/// One outgoing edge of an object: the object referred to, where the reference is stored, and the
/// step it adds to a JSON pointer into the plain JSON. `KeyedArchive.edges(of:shape:layouts:)` lists
/// them; the policy walk, the plain renderer, the shape check and the DOT export read them there.
/// Plain data (no references), so making one per edge costs no reference counting.
struct ObjectEdge {
    /// What holds the reference.
    enum Kind: Equatable {
        /// A field of an instance read field by field (a custom class; any class in the stored graph).
        case field
        /// An element of an array or set held inline in a field (`site.element` is its position).
        case fieldElement
        /// Element `position` of a collection (NSArray, NSSet, NSOrderedSet, NSHashTable, NSPointerArray).
        case element(position: Int)
        /// The key, or the value, of dictionary entry `position` (NSDictionary, NSMapTable).
        case dictionaryKey(position: Int)
        case dictionaryValue(position: Int)
        /// Reference field `FoundationShape.referenceFields[index]` of a Foundation object.
        case referenceField(index: Int)
        /// The attribute dictionary of run `run` of an attributed string, which covers UTF-16 units
        /// `start ..< start + length` of its text (`EdgeCursor.attributedText`).
        case runAttributes(run: Int, start: Int, length: Int)
    }

    var kind: Kind
    /// The UID referred to (0 for `$null`).
    var target: Int
    var site: ReferenceSite
    /// The step from the object's JSON value to the target's; `.none` when the target renders
    /// inside the object's own value (NSURL's parts, a string dictionary key).
    var step: PathComponent
}
