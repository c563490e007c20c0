/// AppKit's catalog (named) colors, `NSColorSpace` 6: `-[NSColor encodeWithCoder:]` writes the
/// catalog's name (`NSCatalogName`, e.g. `System`), the color's name in it (`NSColorName`, e.g.
/// `controlColor`) and the color it resolved to when archived (`NSColor`), which AppKit's
/// `initWithCoder:` uses when the catalog has no such color. Seen in 40 of 41 real nibs
/// (`../shared/real-corpus`); the same keys in GNUstep's and Cocotron's `initWithCoder:`.
extension KeyedArchive {
    /// A catalog color's names and the UID of its fallback color (nil when absent or `$null`).
    public struct CatalogColor: Sendable {
        public let catalogName: String
        public let colorName: String
        public let fallback: Int?
    }

    /// The catalog color, or nil when `uid` is not an NSColor in color space 6 with both names.
    public func catalogColor(_ uid: Int) -> CatalogColor? {
        guard let spaceIndex = field(uid, "NSColorSpace"), plist.kind(of: spaceIndex) == .integer, plist.int64(at: spaceIndex) == 6,
              let catalogName = referencedString(uid, "NSCatalogName"), let colorName = referencedString(uid, "NSColorName") else { return nil }
        let fallback = fieldTarget(uid, "NSColor").flatMap { $0 == 0 ? nil : $0 }
        return CatalogColor(catalogName: catalogName, colorName: colorName, fallback: fallback)
    }
}
