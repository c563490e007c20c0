/// Writes small little-endian typedstreams (`streamtyped`, system 1000) by hand, the way Apple's
/// NSArchiver lays them out: type encodings and class names as shared strings (new `0x84`, then
/// references from `0x92`), objects and classes numbered together in introduction order, integers
/// in one byte or `0x81` + 16 bits / `0x82` + 32 bits. Enough for the pipeline tests' objects.
struct TypedStreamBytes {
    private(set) var bytes: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
    private var strings: [String: Int] = [:]
    private var classes: [String: Int] = [:]
    private var references = 0

    /// A signed or unsigned integer in the stream's compact form.
    mutating func integer(_ value: Int) {
        if (-110 ... 127).contains(value) {
            bytes.append(UInt8(truncatingIfNeeded: value))
        } else if let short = Int16(exactly: value) {
            bytes.append(0x81)
            withUnsafeBytes(of: short.littleEndian) { bytes += $0 }
        } else {
            bytes.append(0x82)
            withUnsafeBytes(of: Int32(truncatingIfNeeded: value).littleEndian) { bytes += $0 }
        }
    }

    /// A shared string (a type encoding or class name): new, or a reference to the first one.
    mutating func shared(_ text: String) {
        if let index = strings[text] {
            integer(0x92 - 256 + index)  // references are the tag bytes 0x92 …
            return
        }
        strings[text] = strings.count
        bytes.append(0x84)
        integer(text.utf8.count)
        bytes += Array(text.utf8)
    }

    /// Starts a group of type `encoding`.
    mutating func group(_ encoding: String) { shared(encoding) }

    /// Starts a new object of class `chain[0]` (superclasses after it, `NSObject` last); its groups
    /// follow, then `end()`. Returns the object's reference number.
    @discardableResult
    mutating func beginObject(_ chain: [String]) -> Int {
        bytes.append(0x84)
        let number = references
        references += 1
        for name in chain {
            if let index = classes[name] {
                integer(0x92 - 256 + index)
                return number
            }
            classes[name] = references
            references += 1
            bytes.append(0x84)
            shared(name)
            integer(name == "NSString" || name == "NSMutableString" ? 1 : 0)
        }
        bytes.append(0x85)
        return number
    }

    mutating func end() { bytes.append(0x86) }

    /// A reference to an object already written.
    mutating func reference(_ number: Int) { integer(0x92 - 256 + number) }

    /// An `@` group holding a new NSString (or NSMutableString).
    mutating func stringObject(_ text: String, mutable: Bool = false) {
        group("@")
        beginObject(mutable ? ["NSMutableString", "NSString", "NSObject"] : ["NSString", "NSObject"])
        group("+")
        integer(text.utf8.count)
        bytes += Array(text.utf8)
        end()
    }

    /// An `@` group holding a new NSNumber of type `q`.
    mutating func numberObject(_ value: Int) {
        group("@")
        beginObject(["NSNumber", "NSValue", "NSObject"])
        group("*")
        bytes.append(0x84)
        shared("q")
        group("q")
        integer(value)
        end()
    }

    /// An iMessage-style body: an NSMutableAttributedString of `text` with one run whose attribute
    /// dictionary holds `__kIMMessagePartAttributeName` = `part` (an NSNumber), or whose one value
    /// is an object of class `valueClass` (a made-up class with one `i` group) when given.
    static func messageBody(_ text: String, part: Int = 0, valueClass: String? = nil) -> [UInt8] {
        var stream = TypedStreamBytes()
        stream.group("@")
        stream.beginObject(["NSMutableAttributedString", "NSAttributedString", "NSObject"])
        stream.stringObject(text, mutable: true)
        stream.group("iI")
        stream.integer(1)
        stream.integer(text.utf16.count)
        stream.group("@")
        stream.beginObject(["NSDictionary", "NSObject"])
        stream.group("i")
        stream.integer(1)
        stream.stringObject("__kIMMessagePartAttributeName")
        if let valueClass {
            stream.group("@")
            stream.beginObject([valueClass, "NSObject"])
            stream.group("i")
            stream.integer(part)
            stream.end()
        } else {
            stream.numberObject(part)
        }
        stream.end()
        stream.end()
        return stream.bytes
    }
}
