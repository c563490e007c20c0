import ArchiveGateCore
import Foundation

/// The families issue 36 added: each reaches a place where what Foundation's decoder reads differs
/// from the archive's face value (inline `$top` values, `"$null"` strings at other indices, a
/// reference where a value is read raw, out-of-range numbers, ObjC-typed NSValues, keys and class
/// names that only look like Foundation's).
extension Mutator {
    /// `$top`'s root made an inline value of any plist kind, or an inline member of any kind added beside it.
    mutating func inlineTop() -> Bool {
        guard let position = model.header.firstIndex(where: { $0.key == "$top" }), case .dictionary(var entries) = model.header[position].value else {
            return false
        }
        let value: PropertyListValue = random.pick([
            7, -1, .integer(Int128(Int64.max)), .integer(1 << 64 - 1), .integer(1 << 70), .integer(-(1 << 64)), .real(2.5), .real(.nan),
            true, false, "text", "", "$null", .data([1, 2]), .data([]), .date(0),
        ])
        if random.chance(0.4), let root = entries.firstIndex(where: { $0.key == "root" }) {
            note = "$top.root inline"
            entries[root].value = value
        } else {
            let name = random.pick(["note", "count", "HasUpdatedParentReference", "$0", "root2", "ключ"])
            note = "$top.\(name) inline"
            entries.removeAll { $0.key == name }
            entries.append(.init(key: name, value: value))
        }
        model.header[position].value = .dictionary(entries)
        return true
    }

    /// A string `"$null"` appended to `$objects` and a UID site (or `$top.root`) pointed at it.
    mutating func nullString() -> Bool {
        model.objects.append("$null")
        let target = UInt32(model.objects.count - 1)
        let sites = uidSites
        if sites.isEmpty || random.chance(0.1) {
            guard let position = model.header.firstIndex(where: { $0.key == "$top" }), case .dictionary(var entries) = model.header[position].value,
                  let root = entries.firstIndex(where: { $0.key == "root" }) else { return false }
            note = "$top.root -> \"$null\" string"
            entries[root].value = .uid(target)
            model.header[position].value = .dictionary(entries)
            return true
        }
        let site = random.pick(sites)
        mark(site.uid, site.key)
        setValue(site, to: .uid(target))
        return true
    }

    /// An inline field value (a number, string, data) moved into a new `$objects` entry and
    /// referenced: Foundation reads most such fields raw (`decodeInteger`, `decodeBytes`, NSString's
    /// `NS.string`), where a UID is no value.
    mutating func rawReference() -> Bool {
        var choices: [(Int, String)] = []
        for uid in instances {
            guard case .dictionary(let fields) = model.objects[uid] else { continue }
            for field in fields where field.key != "$class" && !field.value.isContainer && kind(field.value) != "uid" {
                choices.append((uid, field.key))
            }
        }
        guard !choices.isEmpty else { return false }
        let (uid, key) = random.pick(choices)
        mark(uid, key)
        model.objects.append(model.objects[uid][field: key]!)
        model.objects[uid][field: key] = .uid(UInt32(model.objects.count - 1))
        return true
    }

    /// A number field or inline number object set to a value at or past a limit: dates outside the
    /// years 0001–9999, integers past 2^53, 2^63, 2^64, reals that are not finite.
    mutating func outOfRange() -> Bool {
        var choices: [(Int, String?)] = []
        for uid in model.objects.indices {
            switch model.objects[uid] {
            case .integer, .real: if uid > 0 { choices.append((uid, nil)) }
            case .dictionary(let fields) where model.objects[uid][field: "$class"] != nil:
                for field in fields where kind(field.value) == "integer" || kind(field.value) == "real" { choices.append((uid, field.key)) }
            default: continue
            }
        }
        guard !choices.isEmpty else { return false }
        let (uid, key) = random.pick(choices)
        let value: PropertyListValue = random.pick([
            .real(1e300), .real(-1e300), .real(-63_114_076_801), .real(-63_113_904_000), .real(252_423_993_600), .real(252_423_993_599.5),
            .integer(-70_000_000_000), .integer(300_000_000_000), .integer(1 << 53 + 1), .integer(-(1 << 53) - 1), .integer(Int128(Int64.max)),
            .integer(Int128(Int64.min)), .integer(1 << 63), .integer(1 << 64 - 1), .integer(1 << 70), .real(.infinity), .real(.nan), .integer(-1),
        ])
        if let key {
            mark(uid, key)
            model.objects[uid][field: key] = value
        } else {
            note = "scalar #\(uid)"
            model.objects[uid] = value
        }
        return true
    }

    /// An object (or the root) replaced by an ObjC-typed NSValue: `$0` a type string of every kind
    /// ObjC has, `$1` a value that fits it or not, sometimes a field besides.
    mutating func scalarValue() -> Bool {
        let types = ["c", "C", "s", "S", "i", "I", "l", "L", "q", "Q", "f", "d", "B", "*", "@", ":", "#", "v", "?", "^i",
                     "{CGPoint=dd}", "[3i]", "ii", "", "b4"]
        let type = random.pick(types)
        let value: PropertyListValue = random.pick([
            0, 1, -5, 127, 128, 255, 300, -129, 65535, 70000, .integer(Int128(Int32.max) + 1), .integer(Int128(UInt32.max)),
            .integer(Int128(Int64.max)), .integer(Int128(UInt64.max)), .real(1.5), .real(0.1), .real(2.5e40), .real(.nan), true, false, "1",
            .data([1, 0, 0, 0]), .uid(0),
        ])
        model.objects.append(.string(type))
        let typeUID = UInt32(model.objects.count - 1)
        var fields: [PropertyListValue.Entry] = [.init(key: "$class", value: .uid(model.addClassRecord(["NSValue", "NSObject"]))),
                                                 .init(key: "$0", value: .uid(typeUID)), .init(key: "$1", value: value)]
        if random.chance(0.2) { fields.append(.init(key: random.pick(["extra", "$2", "NS.special"]), value: 1)) }
        let targets = instances
        if targets.isEmpty || random.chance(0.3) {
            model.objects.append(.dictionary(fields))
            note = "NSValue '\(type)' root"
            return setRoot(UInt32(model.objects.count - 1))
        }
        let uid = random.pick(targets)
        note = "NSValue '\(type)' at #\(uid)"
        model.objects[uid] = .dictionary(fields)
        return true
    }

    /// A field key or dictionary-key string replaced by a Unicode-equivalent spelling (NFD of an
    /// NFC key, a compatibility form, a fullwidth or zero-width variant), or an equivalent key added
    /// beside the original: Foundation looks keys up by exact code units.
    mutating func unicodeKey() -> Bool {
        let variants: (String) -> [String] = { key in
            [key.decomposedStringWithCanonicalMapping, key.precomposedStringWithCanonicalMapping, key + "\u{200B}", key.replacingOccurrences(of: "S", with: "\u{FF33}"),
             key.replacingOccurrences(of: "e", with: "e\u{301}"), key.replacingOccurrences(of: "é", with: "e\u{301}"), key.uppercased()]
        }
        if random.chance(0.5) {
            // A string object (dictionary keys, attribute names are such objects).
            let strings = model.objects.indices.filter { uid in
                if uid > 0, case .string(let text) = model.objects[uid] { return !text.isEmpty && text != "$null" }
                return false
            }
            guard !strings.isEmpty else { return false }
            let uid = random.pick(strings)
            guard case .string(let own) = model.objects[uid] else { return false }
            note = "string #\(uid) respelled"
            model.objects[uid] = .string(random.pick(variants(own)))
            return true
        }
        guard let (uid, key) = randomField() else { return false }
        mark(uid, key)
        guard case .dictionary(var entries) = model.objects[uid], let position = entries.firstIndex(where: { $0.key == key }) else { return false }
        let respelled = random.pick(variants(key))
        if random.chance(0.5) {
            entries[position] = .init(key: respelled, value: entries[position].value)
        } else if !entries.contains(where: { $0.key == respelled }) {
            entries.append(.init(key: respelled, value: entries[position].value))
        }
        model.objects[uid] = .dictionary(entries)
        return true
    }

    /// A class record renamed to something that only looks like a Foundation class (a NUL or space
    /// after it, other case, fullwidth letters, a Swift-mangled or private name), or a foreign name
    /// whose `$classes` claims a Foundation class.
    mutating func classSmuggling() -> Bool {
        let records = classRecords
        guard !records.isEmpty else { return false }
        let record = random.pick(records)
        guard case .string(let name)? = model.objects[record][field: "$classname"] else { return false }
        let smuggled = random.pick([
            name + "\u{0}", name + " ", " " + name, name.lowercased(), name.uppercased(), name.replacingOccurrences(of: "S", with: "\u{FF33}"),
            "_" + name, name + "\u{200B}", "Foundation." + name, "__" + name + "Concrete", name.decomposedStringWithCanonicalMapping + "\u{301}",
        ])
        note = "\(name) -> \(smuggled.debugDescription)"
        if random.chance(0.3) {
            // The name is foreign; the chain claims the original.
            model.objects[record][field: "$classes"] = .array([.string(smuggled), .string(name), "NSObject"])
        } else {
            model.objects[record][field: "$classes"] = .array([.string(smuggled), "NSObject"])
        }
        model.objects[record][field: "$classname"] = .string(smuggled)
        return true
    }

    /// Points `$top.root` at `target`.
    private mutating func setRoot(_ target: UInt32) -> Bool {
        guard let position = model.header.firstIndex(where: { $0.key == "$top" }), case .dictionary(var entries) = model.header[position].value,
              let root = entries.firstIndex(where: { $0.key == "root" }) else { return false }
        entries[root].value = .uid(target)
        model.header[position].value = .dictionary(entries)
        return true
    }
}
