/// UIColor's (and AppKit's NSColor's) RGB and white colors, in the layout UIKitCore's
/// `-[UIColor encodeWithCoder:]` writes: `NSColorSpace` (2 device RGB, 4 device white; AppKit also
/// writes 1 calibrated RGB and 3 calibrated white), the components as `UIRed`, `UIGreen`, `UIBlue`,
/// `UIAlpha` or `UIWhite`, `UIAlpha` (with a `-Double` twin when a float would lose precision), and
/// the same values as text in `NSRGB` (`"r g b [a]"`) or `NSWhite` (`"w [a]"`), which is all an
/// AppKit NSColor has. AppKit also writes 5 device CMYK (`NSCMYK` text `"c m y k [a]"`) and 6
/// catalog colors (`NSCatalogName`, `NSColorName` and a fallback `NSColor`, read by
/// `KeyedArchive+CatalogColor`); a component color may add `NSComponents` and a
/// `NSCustomColorSpace` (docs/FOUNDATION-LAYOUTS.md).
extension KeyedArchive {
    /// A color's space name, its JSON member names (with quotes and colons) and values, and the
    /// system color name UIKit records for named colors.
    public struct ColorContents: Sendable {
        public let space: String
        public let names: [StaticString]
        public let components: [Double]
        public let systemName: String?
    }

    private static let rgbNames: [StaticString] = ["\"red\":", "\"green\":", "\"blue\":", "\"alpha\":"]
    private static let whiteNames: [StaticString] = ["\"white\":", "\"alpha\":"]
    private static let cmykNames: [StaticString] = ["\"cyan\":", "\"magenta\":", "\"yellow\":", "\"black\":", "\"alpha\":"]

    /// The color, or nil when it is not an RGB or white color with readable, finite components.
    public func color(_ uid: Int) -> ColorContents? {
        guard let spaceIndex = field(uid, "NSColorSpace"), plist.kind(of: spaceIndex) == .integer,
              let space = plist.int64(at: spaceIndex) else { return nil }
        let systemName = referencedString(uid, "UISystemColorName")
        switch space {
        case 1, 2:
            let fields = [component(uid, "UIRed", "UIRed-Double"), component(uid, "UIGreen", "UIGreen-Double"),
                          component(uid, "UIBlue", "UIBlue-Double"), component(uid, "UIAlpha", "UIAlpha-Double")]
            guard let values = components(fields, text: "NSRGB", of: uid, count: 3) else { return nil }
            return ColorContents(space: space == 1 ? "calibratedRGB" : "deviceRGB", names: Self.rgbNames, components: values, systemName: systemName)
        case 3, 4:
            let fields = [component(uid, "UIWhite", "UIWhite-Double"), component(uid, "UIAlpha", "UIAlpha-Double")]
            guard let values = components(fields, text: "NSWhite", of: uid, count: 1) else { return nil }
            return ColorContents(space: space == 3 ? "calibratedWhite" : "deviceWhite", names: Self.whiteNames, components: values, systemName: systemName)
        case 5:
            guard let values = components([], text: "NSCMYK", of: uid, count: 4) else { return nil }
            return ColorContents(space: "deviceCMYK", names: Self.cmykNames, components: values, systemName: systemName)
        default:
            return nil
        }
    }

    /// What one component field holds: absent, a finite inline number, or something unreadable.
    private enum Component {
        case absent, value(Double), unreadable
    }

    /// The `-Double` twin when present, else the float field.
    /// UIColor's and NSColor's rule: with a color space, readable components or a catalog color.
    func checkColor(_ object: inout ShapeCheckObject) {
        let uid = object.uid
        if field(uid, "NSColorSpace") != nil, color(uid) == nil, catalogColor(uid) == nil {
            object.report(ShapeProblem(.invalidValue, key: "NSColorSpace",
                                       "\(object.className) is not an RGB, white or CMYK color with readable components (UIRed… or NSRGB, UIWhite or NSWhite, NSCMYK) nor a catalog color (NSCatalogName and NSColorName strings)"))
        }
    }

    private func component(_ uid: Int, _ key: StaticString, _ doubleKey: StaticString) -> Component {
        for candidate in [doubleKey, key] {
            guard let index = field(uid, candidate) else { continue }
            guard plist.kind(of: index) == .real || plist.kind(of: index) == .integer, let value = plist.double(at: index), value.isFinite else {
                return .unreadable
            }
            return .value(value)
        }
        return .absent
    }

    /// All component fields, or (when none is present) the text field's `count` numbers plus an
    /// optional alpha (1 when absent). Partial or unreadable components are nil.
    private func components(_ fields: [Component], text key: StaticString, of uid: Int, count: Int) -> [Double]? {
        let values = fields.compactMap { if case .value(let value) = $0 { value } else { nil } }
        if !fields.isEmpty, values.count == fields.count { return values }
        guard fields.allSatisfy({ if case .absent = $0 { true } else { false } }),
              let index = field(uid, key), let bytes = plist.data(at: index), bytes.count <= 256 else { return nil }
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map { Double($0) }
        guard numbers.count == count || numbers.count == count + 1 else { return nil }
        var parsed = [Double]()
        for number in numbers {
            guard let number, number.isFinite else { return nil }
            parsed.append(number)
        }
        if parsed.count == count { parsed.append(1) }
        return parsed
    }
}
