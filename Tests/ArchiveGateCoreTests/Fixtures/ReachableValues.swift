import Foundation
@testable import ArchiveGateCore

/// Every string and number an archive holds that is reachable from `$top` (through UIDs, never
/// through `$class`), with the class and key it was found under, and whether a rule of
/// docs/FOUNDATION-LAYOUTS.md ("Values the plain JSON shows in another form") explains its absence
/// from the plain JSON. Walked with an explicit stack.
struct ReachableValues {
    struct Value {
        let owner: String
        let key: String
        let string: String?
        let number: Double?
        let isExplained: Bool
        var text: String { string.map { "\"\($0)\"" } ?? number.map { "\($0)" } ?? "?" }
    }

    private(set) var values: [Value] = []

    /// (class, key) pairs whose values the plain JSON shows in another form, and why.
    static let shownInAnotherForm: Set<String> = [
        "NSDate NS.time",  // an ISO 8601 timestamp
        "CLLocation kCLLocationCodingKeyTimestamp",  // an ISO 8601 timestamp
        "NSValue NS.special",  // which NSValue form: the JSON's shape
        "NSIndexPath NSIndexPathLength", "NSIndexSet NSRangeCount", "NSMutableIndexSet NSRangeCount",  // counts of what the array holds
        "NSHashTable NS.count", "NSMapTable NS.count", "NSPointerArray $0", "NSPointerArray $1", "NSHashTable $0", "NSMapTable $0", "NSMapTable $1",
        "NSDecimalNumber NS.exponent", "NSDecimalNumber NS.length", "NSDecimalNumber NS.negative",  // the decimal text
        "NSDecimalNumber NS.mantissa.bo",  // the mantissa's byte order: the decimal text
        // Apple's unit specifier (which unit of the dimension); the unit shows its symbol.
        "NSUnitAngle NS.specifier", "NSUnitFrequency NS.specifier", "NSUnitLength NS.specifier",
        "NSColor NSColorSpace", "UIColor NSColorSpace",  // the colorSpace name
        "UIColor UIColorComponentCount",  // the number of components shown
        "NSCalendar NS.firstwkdy", "NSCalendar NS.mindays",  // NSCalendar is its identifier
        "NSAttributedString NSString", "NSMutableAttributedString NSString",  // the text, split into runs
        "NSValue NS.rectval", "NSValue NS.pointval", "NSValue NS.sizeval",  // the geometry text as {"x","y",…}
    ]

    /// (class, key) pairs under which a whole referenced subtree is shown in another form.
    static let subtreeShownInAnotherForm: Set<String> = [
        "NSCalendar NS.timezone", "NSCalendar NS.locale", "NSCalendar NS.gstartdate",
        "NSAttributedString NSString", "NSMutableAttributedString NSString",
        "NSURL NS.base",  // resolved into the URL's absolute string
    ]

    init(_ archive: KeyedArchive) {
        var seen = Array(repeating: false, count: archive.objectCount)
        // (plist index of a value, owner class, key, explained, the object's UID or -1, under an unread field)
        var stack: [(Int, String, String, Bool, Int, Bool)] = []
        for entry in archive.top.reversed() {
            if let inline = entry.inlineValue { stack.append((inline, "$top", entry.name, false, -1, false)) } else if entry.uid != 0 {
                stack.append((archive.plistIndex(of: entry.uid), "$top", entry.name, false, entry.uid, false))
                seen[entry.uid] = true
            }
        }
        let plist = archive.plist
        while let (index, owner, key, explained, uid, unread) = stack.popLast() {
            switch plist.kind(of: index) {
            case .uid:
                guard let target = plist.uid(at: index), target != 0, target < archive.objectCount, !seen[target] else { continue }
                seen[target] = true
                // Rule "$unread reference": under a field its class does not read, a reference to an
                // object that is not an inline string or number is shown as {"$uid": n}.
                let shownAsUID = unread && !(archive.classIndex(of: target).map { archive.classes[$0].isInline } ?? false)
                stack.append((archive.plistIndex(of: target), owner, key, explained || shownAsUID, target, false))
            case .array, .set:
                for element in plist.children(of: index) { stack.append((Int(element), owner, key, explained, -1, unread)) }
            case .dictionary:
                let className = Self.className(of: index, in: archive)
                let base = className.flatMap { _ in plist.dictionaryValue(index, forKey: "NS.base") }.flatMap { plist.uid(at: $0) } ?? 0
                // Rule "$unread": fields the class's definition does not read are in the plain JSON
                // under "$unread" (inline values as themselves).
                let shape = uid > 0 ? (try? archive.shape(of: uid)) ?? nil : nil
                let unreadPairs = shape.map { Set(archive.unreadFieldPairs(of: uid, shape: $0)) } ?? []
                for pair in 0 ..< plist.count(of: index) {
                    guard let name = plist.string(at: plist.dictionaryKey(index, pair: pair)), name != "$class" else { continue }
                    let ownerClass = className ?? owner
                    let rule = "\(ownerClass) \(name)"
                    let relativeWithBase = ownerClass == "NSURL" && name == "NS.relative" && base != 0
                    stack.append((plist.dictionaryValue(index, pair: pair), ownerClass, name,
                                  explained || Self.subtreeShownInAnotherForm.contains(rule) || Self.shownInAnotherForm.contains(rule) || relativeWithBase,
                                  -1, unread || unreadPairs.contains(pair)))
                }
            case .asciiString, .utf8String, .utf16String:
                if let text = plist.string(at: index), text != "$null" {
                    values.append(Value(owner: owner, key: key, string: text, number: nil, isExplained: explained))
                }
            case .integer:
                let value = plist.integer128(plist[index])
                // NSDateComponentUndefined renders as null.
                let undefined = owner == "NSDateComponents" && value == Int128(Int.max)
                values.append(Value(owner: owner, key: key, string: nil, number: Double(value), isExplained: explained || undefined))
            case .real:
                let value = plist.double(at: index) ?? .nan
                // UIColor's float components give way to their `-Double` twins.
                let floatTwin = owner == "UIColor" && ["UIRed", "UIGreen", "UIBlue", "UIAlpha", "UIWhite"].contains(key)
                values.append(Value(owner: owner, key: key, string: value.isFinite ? nil : Self.nonFinite(value), number: value.isFinite ? value : nil,
                                    isExplained: explained || floatTwin))
            default:
                continue
            }
        }
    }

    private static func className(of index: Int, in archive: KeyedArchive) -> String? {
        guard let classField = archive.plist.dictionaryValue(index, forKey: "$class"), let record = archive.plist.uid(at: classField),
              record < archive.objectCount, let name = archive.plist.dictionaryValue(archive.plistIndex(of: record), forKey: "$classname") else { return nil }
        return archive.plist.string(at: name)
    }

    private static func nonFinite(_ value: Double) -> String { value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity" }
}

/// The strings (values and member names) and numbers of a plain JSON document.
struct JSONValues {
    private var strings = Set<String>()
    private var numbers = Set<Double>()

    /// Strings through JSONSerialization; numbers from their text (corelibs' JSONSerialization can
    /// round a 17-digit number), so each compares exactly with the archive's double.
    init(_ json: [UInt8]) {
        guard let document = try? JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed]) else { return }
        var stack: [Any] = [document]
        while let next = stack.popLast() {
            if let object = next as? [String: Any] {
                strings.formUnion(object.keys)
                stack.append(contentsOf: object.values)
            } else if let array = next as? [Any] {
                stack.append(contentsOf: array)
            } else if let text = next as? String {
                strings.insert(text)
            }
        }
        var position = 0
        var inString = false
        while position < json.count {
            let byte = json[position]
            if inString {
                if byte == UInt8(ascii: "\\") { position += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                position += 1
            } else if byte == UInt8(ascii: "\"") {
                inString = true
                position += 1
            } else if byte == UInt8(ascii: "-") || (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) {
                let start = position
                while position < json.count, "0123456789+-.eE".utf8.contains(json[position]) { position += 1 }
                if let number = Double(String(decoding: json[start ..< position], as: UTF8.self)) { numbers.insert(number) }
            } else {
                position += 1
            }
        }
    }

    func contains(_ value: ReachableValues.Value) -> Bool {
        if let string = value.string { return strings.contains(string) }
        if let number = value.number { return numbers.contains(number) }
        return true
    }
}
