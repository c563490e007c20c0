import ArchiveGateCore
import ArchiveGateSeededRandom
import Foundation

/// Builds random graphs of the Foundation classes ArchiveGate admits and archives them with
/// Foundation's own `NSKeyedArchiver`. Two classes corelibs cannot archive (its `NSDecimalNumber`
/// and `NSError` trap in `hash`) are archived as marker arrays and then rewritten into Apple's
/// encoding at the plist level (`ArchiveModel.replacePlaceholders`).
struct GraphGenerator {
    var random: SeededRandom
    /// Objects already made, for sharing one object between several sites.
    private var made: [AnyObject] = []

    init(random: SeededRandom) { self.random = random }

    /// A Foundation-written archive of a random graph, with its root class name.
    mutating func archive() -> (bytes: [UInt8], rootClass: String)? {
        let root = node(depth: 0)
        guard let data = try? NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: true),
              var model = ArchiveModel(bytes: Array(data)) else { return nil }
        model.replacePlaceholders()
        return (model.bytes, model.className(of: 1) ?? "inline")
    }

    private mutating func node(depth: Int) -> AnyObject {
        if depth > 0, !made.isEmpty, random.chance(0.08) { return random.pick(made) }
        let object: AnyObject = depth < 3 && random.chance(depth == 0 ? 0.75 : 0.35) ? container(depth: depth) : leaf()
        made.append(object)
        return object
    }

    private mutating func container(depth: Int) -> AnyObject {
        let count = Int(random.next() % 5)
        switch random.next() % 11 {
        case 0: return NSArray(array: (0 ..< count).map { _ in node(depth: depth + 1) })
        case 1: return NSMutableArray(array: (0 ..< count).map { _ in node(depth: depth + 1) })
        case 2, 3:
            var keys: [NSObject] = []
            var values: [AnyObject] = []
            for position in 0 ..< count {
                let key: NSObject = random.chance(0.85) ? (random.pick(Self.keys) + (position > 0 ? "\(position)" : "")) as NSString
                    : NSNumber(value: position * 7)
                keys.append(key)
                values.append(node(depth: depth + 1))
            }
            return random.chance(0.5) ? NSDictionary(objects: values, forKeys: keys) : NSMutableDictionary(objects: values, forKeys: keys)
        case 4: return NSSet(array: hashableLeaves(count))
        case 5: return NSMutableSet(array: hashableLeaves(count))
        case 6: return NSOrderedSet(array: hashableLeaves(count))
        case 7: return NSMutableOrderedSet(array: hashableLeaves(count))
        case 8:
            let error = NSMutableArray(array: ["\u{1}ERR", random.pick(["NSCocoaErrorDomain", "app.example", ""]) as NSString,
                                               NSNumber(value: random.pick([0, 4, -1, 260, 1 << 40]))])
            if random.chance(0.7) {
                let info = NSMutableDictionary()
                for position in 0 ..< count { info["k\(position)" as NSString] = node(depth: depth + 1) }
                error.add(info)
            }
            return error
        default: return attributedString()
        }
    }

    private mutating func hashableLeaves(_ count: Int) -> [AnyObject] {
        var seen = Set<String>()
        var result: [AnyObject] = []
        for _ in 0 ..< count {
            let value: AnyObject = random.chance(0.6) ? random.pick(Self.strings) as NSString : NSNumber(value: Int(random.next() % 50))
            if seen.insert("\(type(of: value)):\(value)").inserted { result.append(value) }
        }
        return result
    }

    private mutating func attributedString() -> AnyObject {
        let text = random.pick(["hello world", "ünïcödé text", "😀 emoji run", "abc", ""])
        let result = NSMutableAttributedString(string: text)
        let length = (text as NSString).length
        var location = 0
        while location < length {
            let runLength = min(length - location, 1 + Int(random.next() % 6))
            if random.chance(0.7) {
                var attributes: [NSAttributedString.Key: Any] = [NSAttributedString.Key("k\(random.next() % 3)"): random.pick(Self.strings) as NSString]
                if random.chance(0.3) { attributes[NSAttributedString.Key("n")] = NSNumber(value: Int(random.next() % 9)) }
                result.setAttributes(attributes, range: NSRange(location: location, length: runLength))
            }
            location += runLength
        }
        return random.chance(0.5) ? result : NSAttributedString(attributedString: result)
    }

    private mutating func leaf() -> AnyObject {
        switch random.next() % 20 {
        case 0, 1: return random.pick(Self.strings) as NSString
        case 2: return NSMutableString(string: random.pick(Self.strings))
        case 3: return NSNumber(value: random.pick([0, 1, -1, 42, 255, 256, 65535, 65536, Int(Int32.max), Int.max, Int.min, Int(random.next() >> 1)]))
        case 4: return NSNumber(value: random.pick([0.5, -0.0, 1e300, 3.14159, -2.5e-8, 1.0, Double(random.next() % 1000) / 7]))
        case 5: return NSNumber(value: random.chance(0.5))
        case 6:
            let bytes = (0 ..< Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return NSData(bytes: bytes, length: bytes.count)
        case 7:
            let bytes = (0 ..< Int(random.next() % 20)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            return NSMutableData(bytes: bytes, length: bytes.count)
        case 8: return NSDate(timeIntervalSinceReferenceDate: random.pick([0, -1e10, 8e8 + 0.125, 1.5e9, Double(Int64(bitPattern: random.next()) % 10_000_000_000) / 1000]))
        case 9:
            let (relative, base) = random.pick(Self.urls)
            return NSURL(string: relative, relativeTo: base.flatMap { URL(string: $0) })!
        case 10: return NSUUID(uuidBytes: (0 ..< 16).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 11: return NSNull()
        case 12:
            switch random.next() % 5 {
            case 0: return NSValue(range: NSRange(location: Int(random.next() % 1000), length: Int(random.next() % 1000)))
            case 1: return NSValue(point: NSPoint(x: 1.5, y: -2))
            case 2: return NSValue(size: NSSize(width: 3, height: 4.25))
            case 3: return NSValue(rect: NSRect(x: 1, y: 2, width: 3.5, height: 4))
            default: return NSValue(edgeInsets: NSEdgeInsets(top: 1, left: 2, bottom: 3, right: 4.5))
            }
        case 13: return NSTimeZone(name: random.pick(["Europe/Paris", "UTC", "America/New_York", "Asia/Tokyo", "GMT"]))!
        case 14: return NSLocale(localeIdentifier: random.pick(["fr_FR", "en_US", "ja_JP", "de", "en_US_POSIX"]))
        case 15:
            let indexes = NSMutableIndexSet()
            for _ in 0 ..< random.next() % 4 { indexes.add(in: NSRange(location: Int(random.next() % 200), length: 1 + Int(random.next() % 5))) }
            return random.chance(0.5) ? indexes : NSIndexSet(indexSet: indexes as IndexSet)
        case 16:
            return NSArray(array: ["\u{1}DEC", NSNumber(value: random.pick([0, 1, 12345, 99_999_999_999, UInt64.max >> 1])),
                                   NSNumber(value: random.pick([0, -2, 3, -10])), NSNumber(value: random.chance(0.3))])
        default: return random.pick(Self.strings) as NSString
        }
    }

    static let strings = ["", "a", "hello", "ünïcödé", "😀 emoji", "line\nbreak", "NS.string", "$class", "with \"quotes\"",
                          String(repeating: "long ", count: 60), "Nowhere/City", "123"]
    static let keys = ["name", "value", "NS.keys", "$top", "k", "ключ"]
    static let urls: [(String, String?)] = [
        ("https://h.example/p?q=1#f", nil), ("file:///tmp/x", nil), ("d/e", "https://h.example/a/b"),
        ("../d", "https://h.example/p/q"), ("mailto:a@b.example", nil), ("?x=1", "https://h.example/a"),
    ]
}
