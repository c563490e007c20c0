/// The policy group each class of the definitions table belongs to (`"allow": ["corelocation"]`).
/// Foundation's own value classes are `foundation`; value classes of other Apple frameworks that
/// forensic extractions hold have their own group, so admitting them is a deliberate choice.
public enum ShapeGroup: String, Hashable, Sendable, CaseIterable {
    /// What Foundation itself ships.
    case foundation
    /// CoreLocation's value classes (CLLocation).
    case coreLocation = "corelocation"
    /// UIKit's and AppKit's value classes (UIColor, NSColor, UIFont, NSFont, NSParagraphStyle).
    case uikitValues = "uikit-values"
    /// NSHashTable, NSMapTable, NSPointerArray: Foundation's, but corelibs cannot decode them, so
    /// a gate in front of a Linux reader must not admit them with `foundation`.
    case pointerCollections = "pointer-collections"
}

extension FoundationShape {
    /// The policy group that admits the shape's classes.
    public var group: ShapeGroup { Self.definitionsByOrdinal[ordinal].group }

    /// Every `$classname` of the table in `group`.
    public static func classNames(in group: ShapeGroup) -> Set<String> {
        Set(allCases.filter { $0.group == group }.flatMap { $0.definition.classNames }).subtracting(fieldOnlyClassNames)
    }

    /// Private helper classes Apple's Foundation decodes only inside their owner (it adds them to
    /// the allowed classes itself): read with the owner's shape, admitted only at the owner's
    /// field (`_NSPersonNameComponentsData` under `NS.nameComponentsPrivate`), never by a group.
    public static let fieldOnlyClassNames: Set<String> = ["_NSPersonNameComponentsData"]
}
