import Foundation

/// Writes a graph decoded by Foundation as JSON in ArchiveGate's plain shape (docs/JSON.md "JSON
/// conventions"), with tags where the comparison must not be positional or textual:
/// `{"\u{1}set": […]}` (any order), `{"\u{1}dict": [{"key","value"}]}` (non-string keys, any order),
/// `{"$date": seconds}`, `{"$decimal": "text"}`, `{"$attributed": {"string","runs"}}`,
/// `{"\u{1}error": {"domain","code","userInfo"}}`, `{"\u{1}cycle": true}`. Tags start with U+0001;
/// an archive's own key that starts with U+0001 is written with one more U+0001 in front
/// (`escapedKey`), so no archive key can pose as a tag and `JSONComparison` can undo the escape.
struct FoundationJSON {
    /// An archive key as written here: one more U+0001 in front of a key that starts with U+0001.
    static func escapedKey(_ key: String) -> String { key.hasPrefix(tagMark) ? tagMark + key : key }

    /// The archive key an object key written here stands for (the inverse of `escapedKey`).
    static func unescapedKey(_ key: String) -> String { key.hasPrefix(tagMark + tagMark) ? String(key.dropFirst()) : key }

    /// Whether an object key written here is a tag rather than an archive key.
    static func isTag(_ key: String) -> Bool { key.hasPrefix(tagMark) && !key.hasPrefix(tagMark + tagMark) }

    static let tagMark = "\u{1}"

    private(set) var bytes: [UInt8] = []
    /// Objects being written (cycle detection); the graph came from a decoder, so it can be cyclic.
    private var open: [ObjectIdentifier] = []
    private static let maxDepth = 600

    mutating func write(_ value: Any) {
        if open.count > Self.maxDepth { append("{\"\\u0001cycle\":true}"); return }
        let object = value as AnyObject
        let identity = ObjectIdentifier(object)
        if open.contains(identity) { append("{\"\\u0001cycle\":true}"); return }
        open.append(identity)
        defer { open.removeLast() }
        switch value {
        case is NSNull:
            append("null")
        case let number as NSDecimalNumber:
            append("{\"\\u0001decimal\":"); string(number.description); append("}")
        case let number as NSNumber:
            writeNumber(number)
        case let text as NSString:
            string(text as String)
        case let attributed as NSAttributedString:
            writeAttributed(attributed)
        case let data as NSData:
            string((data as Data).base64EncodedString())
        case let date as NSDate:
            append("{\"\\u0001date\":"); double(date.timeIntervalSinceReferenceDate); append("}")
        case let url as NSURL:
            string(url.absoluteString ?? "")
        case let uuid as NSUUID:
            string(uuid.uuidString)
        case let zone as NSTimeZone:
            string(zone.name)
        case let locale as NSLocale:
            string(locale.object(forKey: .identifier) as? String ?? "")
        case let name as NSPersonNameComponents:
            writeNameComponents(name)
        case let interval as NSDateInterval:
            append("{\"start\":"); write(interval.startDate as NSDate)
            append(",\"end\":"); write(interval.endDate as NSDate); append("}")
        case let measurement as NSMeasurement:
            append("{\"value\":"); double(measurement.doubleValue); append(",\"unit\":"); write(measurement.unit); append("}")
        case let unit as Unit:
            append("{\"symbol\":"); string(unit.symbol); append(",\"converter\":")
            if let dimension = unit as? Dimension { write(dimension.converter) } else { append("null") }
            append("}")
        case let converter as UnitConverterLinear:
            append("{\"coefficient\":"); double(converter.coefficient); append(",\"constant\":"); double(converter.constant); append("}")
        case let transform as NSAffineTransform:
            let matrix = transform.transformStruct
            numbers(["m11": matrix.m11, "m12": matrix.m12, "m21": matrix.m21, "m22": matrix.m22, "tX": matrix.tX, "tY": matrix.tY],
                    order: ["m11", "m12", "m21", "m22", "tX", "tY"])
        case let calendar as NSCalendar:
            string(calendar.calendarIdentifier.rawValue)
        case let components as NSDateComponents:
            writeDateComponents(components)
        case let path as NSIndexPath:
            append("[" + (0 ..< path.length).map { String(path.index(atPosition: $0)) }.joined(separator: ",") + "]")
        case let indexes as NSIndexSet:
            append("[")
            var first = true
            indexes.enumerateRanges(options: []) { range, _ in
                if !first { self.append(",") }
                first = false
                self.append("{\"location\":\(range.location),\"length\":\(range.length)}")
            }
            append("]")
        case let error as NSError:
            append("{\"\\u0001error\":{\"domain\":"); string(error.domain)
            append(",\"code\":\(error.code),\"userInfo\":")
            writeStringKeyed(error.userInfo.map { ($0.key, $0.value) })
            append("}}")
        case let special as NSValue:
            writeValue(special)
        case let ordered as NSOrderedSet:
            writeArray(ordered.array)
        case let set as NSSet:
            append("{\"\\u0001set\":"); writeArray(set.allObjects); append("}")
        case let array as NSArray:
            writeArray(array.map { $0 })
        case let dictionary as NSDictionary:
            writeDictionary(dictionary)
        default:
            append("{\"\\u0001unexpected\":"); string(String(describing: type(of: value))); append("}")
        }
    }

    /// ArchiveGate's members, in its order; NSDateComponentUndefined is `null`.
    private mutating func writeDateComponents(_ components: NSDateComponents) {
        append("{\"calendar\":")
        if let calendar = components.calendar { write(calendar as NSCalendar) } else { append("null") }
        append(",\"timeZone\":")
        if let zone = components.timeZone { write(zone as NSTimeZone) } else { append("null") }
        let values: [(String, Int)] = [
            ("era", components.era), ("year", components.year), ("quarter", components.quarter), ("month", components.month),
            ("day", components.day), ("hour", components.hour), ("minute", components.minute), ("second", components.second),
            ("nanosecond", components.nanosecond), ("weekOfYear", components.weekOfYear), ("weekOfMonth", components.weekOfMonth),
            ("yearForWeekOfYear", components.yearForWeekOfYear), ("weekday", components.weekday),
            ("weekdayOrdinal", components.weekdayOrdinal),
        ]
        for (name, value) in values {
            append(","); string(name); append(":")
            append(value == NSDateComponentUndefined ? "null" : String(value))
        }
        append(",\"isLeapMonth\":\(components.isLeapMonth)}")
    }

    /// ArchiveGate's members, in its order; an absent part is `null`.
    private mutating func writeNameComponents(_ name: NSPersonNameComponents) {
        let parts: [(String, String?)] = [
            ("namePrefix", name.namePrefix), ("givenName", name.givenName), ("middleName", name.middleName),
            ("familyName", name.familyName), ("nameSuffix", name.nameSuffix), ("nickname", name.nickname),
        ]
        append("{")
        for (key, value) in parts {
            string(key); append(":")
            if let value { string(value) } else { append("null") }
            append(",")
        }
        append("\"phoneticRepresentation\":")
        if let phonetic = name.phoneticRepresentation { write(phonetic as NSPersonNameComponents) } else { append("null") }
        append("}")
    }

    private mutating func writeNumber(_ number: NSNumber) {
        let type = String(cString: number.objCType)
        switch type {
        case "d", "f":
            double(number.doubleValue)
        case "Q", "L", "I", "S", "C":
            append(String(number.uint64Value))
        default:
            append(String(number.int64Value))
        }
    }

    private mutating func writeValue(_ value: NSValue) {
        // objCType names the struct: "{CGRect={CGPoint=dd}{CGSize=dd}}" contains "CGPoint" too, so
        // match the outermost name (asking a rect for pointValue traps in corelibs).
        let type = String(cString: value.objCType)
        let name = type.dropFirst().prefix { $0 != "=" }
        if name.hasSuffix("Range") {
            let range = value.rangeValue
            append("{\"location\":\(range.location),\"length\":\(range.length)}")
        } else if name.hasSuffix("Rect") {
            let rect = value.rectValue
            numbers(["x": rect.origin.x, "y": rect.origin.y, "width": rect.size.width, "height": rect.size.height],
                    order: ["x", "y", "width", "height"])
        } else if name.hasSuffix("Point") {
            let point = value.pointValue
            numbers(["x": point.x, "y": point.y], order: ["x", "y"])
        } else if name.hasSuffix("Size") {
            let size = value.sizeValue
            numbers(["width": size.width, "height": size.height], order: ["width", "height"])
        } else if name.hasSuffix("EdgeInsets") {
            let insets = value.edgeInsetsValue
            numbers(["top": insets.top, "left": insets.left, "bottom": insets.bottom, "right": insets.right],
                    order: ["top", "left", "bottom", "right"])
        } else if !writeScalarValue(value, type: type) {
            append("{\"\\u0001unexpected\":"); string("NSValue " + type); append("}")
        }
    }

    /// An ObjC-typed NSValue of one scalar type as ArchiveGate's plain JSON shows it:
    /// `{"$class":"NSValue","$0":type,"$1":value}`, the value read back with `getValue`.
    private mutating func writeScalarValue(_ value: NSValue, type: String) -> Bool {
        func read<T>(_ initial: T) -> T {
            var result = initial
            value.getValue(&result)
            return result
        }
        let text: String
        switch type {
        case "c": text = String(read(Int8(0)))
        case "C": text = String(read(UInt8(0)))
        case "s": text = String(read(Int16(0)))
        case "S": text = String(read(UInt16(0)))
        // corelibs' NSValue holds `l`/`L` in 4 bytes (Apple's long in archives is 32-bit too).
        case "i", "l": text = String(read(Int32(0)))
        case "I", "L": text = String(read(UInt32(0)))
        case "q": text = String(read(Int64(0)))
        case "Q": text = String(read(UInt64(0)))
        case "f": text = Double(read(Float(0))).description
        case "d": text = read(Double(0)).description
        // As 1/0: the comparison takes a bool for its integer (an NSNumber cannot say bool).
        case "B": text = read(false) ? "1" : "0"
        default: return false
        }
        append("{\"$class\":\"NSValue\",\"$0\":"); string(type); append(",\"$1\":" + text + "}")
        return true
    }

    private mutating func numbers(_ values: [String: CGFloat], order: [String]) {
        append("{")
        for (position, name) in order.enumerated() {
            if position > 0 { append(",") }
            string(name); append(":"); double(Double(values[name]!))
        }
        append("}")
    }

    private mutating func writeAttributed(_ attributed: NSAttributedString) {
        append("{\"\\u0001attributed\":{\"string\":"); string(attributed.string); append(",\"runs\":[")
        var first = true
        var runs: [(NSRange, [NSAttributedString.Key: Any])] = []
        attributed.enumerateAttributes(in: NSRange(location: 0, length: attributed.length), options: []) { attributes, range, _ in
            runs.append((range, attributes))
        }
        for (range, attributes) in runs {
            if !first { append(",") }
            first = false
            append("{\"location\":\(range.location),\"length\":\(range.length),\"attributes\":")
            writeStringKeyed(attributes.map { ($0.key.rawValue, $0.value) })
            append("}")
        }
        append("]}}")
    }

    private mutating func writeArray(_ elements: [Any]) {
        append("[")
        for (position, element) in elements.enumerated() {
            if position > 0 { append(",") }
            write(element)
        }
        append("]")
    }

    private mutating func writeStringKeyed(_ pairs: [(String, Any)]) {
        append("{")
        for (position, pair) in pairs.enumerated() {
            if position > 0 { append(",") }
            string(Self.escapedKey(pair.0)); append(":"); write(pair.1)
        }
        append("}")
    }

    private mutating func writeDictionary(_ dictionary: NSDictionary) {
        var pairs: [(Any, Any)] = []
        // corelibs builds a dictionary holding nil for a `$null` value (Apple raises instead), and
        // enumerating it traps inside Foundation: that trap is Foundation's, not the writer's.
        FoundationWorker.decodedFlag.pointee = 2
        dictionary.enumerateKeysAndObjects { key, value, _ in pairs.append((key, value)) }
        FoundationWorker.decodedFlag.pointee = 1
        if pairs.allSatisfy({ $0.0 is NSString }) {
            writeStringKeyed(pairs.map { ($0.0 as! NSString as String, $0.1) })
            return
        }
        append("{\"\\u0001dict\":[")
        for (position, pair) in pairs.enumerated() {
            if position > 0 { append(",") }
            append("{\"key\":"); write(pair.0); append(",\"value\":"); write(pair.1); append("}")
        }
        append("]}")
    }

    private mutating func double(_ value: Double) {
        if value.isNaN { append("\"NaN\""); return }
        if value.isInfinite { append(value < 0 ? "\"-Infinity\"" : "\"Infinity\""); return }
        append(value.description)
    }

    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for unit in text.unicodeScalars {
            switch unit {
            case "\"": append("\\\"")
            case "\\": append("\\\\")
            case _ where unit.value < 0x20: append(String(format: "\\u%04x", unit.value))
            default: bytes.append(contentsOf: String(unit).utf8)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    // For `FoundationWorker.topMembers`, which writes `$top` around values written here.
    mutating func raw(_ text: String) { append(text) }
    mutating func key(_ name: String) { string(name); append(":") }
    mutating func text(_ value: String) { string(value) }
    mutating func number(_ value: Double) { double(value) }
}
