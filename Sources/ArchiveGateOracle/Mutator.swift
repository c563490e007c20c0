import ArchiveGateCore
import ArchiveGateSeededRandom

/// Applies one family of structured mutation to an archive at the plist level.
struct Mutator {
    var random: SeededRandom
    var model: ArchiveModel
    /// What the last mutation touched, `Class.field` (for grouping failures).
    var note = ""

    init(random: SeededRandom, model: ArchiveModel) {
        self.random = random
        self.model = model
    }

    mutating func mark(_ uid: Int, _ key: String) {
        let text = "\(model.className(of: uid) ?? "?").\(key)"
        note = note.isEmpty ? text : note + "+" + text
    }

    /// Where a UID sits: field `key` of object `uid`, or element `element` of that field's array.
    struct Site: Hashable {
        let uid: Int
        let key: String
        let element: Int?
    }

    /// Applies `family`; false when the archive offers nothing it could change.
    mutating func apply(_ family: MutationFamily) -> Bool {
        switch family {
        case .none, .combined: return true
        case .version:
            let current = model.header.firstIndex { $0.key == "$version" }
            let value: PropertyListValue = random.pick([10000, 18, 0, 100001, -1, 99999, .string("100000"), .real(100000)])
            note = "$version"
            if let current { model.header[current].value = value } else { model.header.append(.init(key: "$version", value: value)) }
            return true
        case .fieldType:
            guard let (uid, key) = randomField() else { return false }
            let current = model.objects[uid][field: key]!
            var replacement = randomValue()
            for _ in 0 ..< 4 where kind(replacement) == kind(current) { replacement = randomValue() }
            mark(uid, key)
            model.objects[uid][field: key] = replacement
            return true
        case .length:
            return changeLength()
        case .fieldDrop:
            guard let (uid, key) = randomField() else { return false }
            mark(uid, key)
            model.objects[uid][field: key] = nil
            return true
        case .fieldAdd:
            let candidates = instances
            guard !candidates.isEmpty else { return false }
            let uid = random.pick(candidates), key = random.pick(Self.fieldNames)
            mark(uid, key)
            model.objects[uid][field: key] = randomValue()
            return true
        case .uidRetarget:
            let sites = uidSites
            guard !sites.isEmpty else { return false }
            let site = random.pick(sites)
            mark(site.uid, site.key)
            set(site, to: UInt32(random.next() % UInt64(model.objects.count)))
            return true
        case .classSwap:
            return swapClass()
        case .sharing:
            let sites = uidSites
            guard sites.count >= 2 else { return false }
            let source = random.pick(sites)
            let site = random.pick(sites)
            mark(site.uid, site.key)
            set(site, to: target(of: source))
            return true
        case .cycle:
            return makeCycle()
        case .nullInCollection:
            let sites = uidSites.filter { $0.element != nil || $0.key.hasPrefix("NS.object.") }
            guard !sites.isEmpty else { return false }
            let site = random.pick(sites)
            mark(site.uid, site.key)
            set(site, to: 0)
            return true
        case .duplicateMember:
            return duplicateMember()
        case .inlineTop: return inlineTop()
        case .nullString: return nullString()
        case .rawReference: return rawReference()
        case .outOfRange: return outOfRange()
        case .scalarValue: return scalarValue()
        case .unicodeKey: return unicodeKey()
        case .classSmuggling: return classSmuggling()
        case .inlineSwap:
            let sites = uidSites.filter { site in
                let value = model.objects[Int(target(of: site))]
                return !value.isContainer && kind(value) != "uid"
            }
            guard !sites.isEmpty else { return false }
            let site = random.pick(sites)
            mark(site.uid, site.key)
            setValue(site, to: model.objects[Int(target(of: site))])
            return true
        }
    }

    // MARK: - Families with more than one step

    private mutating func changeLength() -> Bool {
        var choices: [(Int, String)] = []
        for uid in instances {
            guard case .dictionary(let fields) = model.objects[uid] else { continue }
            for field in fields where field.key != "$class" {
                switch field.value {
                case .data, .array, .string: choices.append((uid, field.key))
                default: continue
                }
            }
        }
        let scalarStrings = model.objects.indices.filter { uid in
            if case .string = model.objects[uid] { return uid > 0 }
            if case .data = model.objects[uid] { return true }
            return false
        }
        if !choices.isEmpty, scalarStrings.isEmpty || random.chance(0.7) {
            let (uid, key) = random.pick(choices)
            mark(uid, key)
            model.objects[uid][field: key] = resized(model.objects[uid][field: key]!)
            return true
        }
        guard !scalarStrings.isEmpty else { return false }
        let uid = random.pick(scalarStrings)
        note = "scalar #\(uid)"
        model.objects[uid] = resized(model.objects[uid])
        return true
    }

    private mutating func resized(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .data(let bytes):
            if !bytes.isEmpty, random.chance(0.5) { return .data(Array(bytes.prefix(Int(random.next() % UInt64(bytes.count))))) }
            return .data(bytes + (0 ..< 1 + random.next() % 17).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case .string(let text):
            if !text.isEmpty, random.chance(0.5) { return .string(String(text.dropLast(1 + Int(random.next() % UInt64(text.count))))) }
            return .string(text + random.pick(["x", "é", "😀", "\u{0}"]))
        case .array(let elements):
            if !elements.isEmpty, random.chance(0.5) {
                var copy = elements
                copy.remove(at: Int(random.next() % UInt64(elements.count)))
                return .array(copy)
            }
            return .array(elements + [.uid(UInt32(random.next() % UInt64(model.objects.count)))])
        default:
            return value
        }
    }

    private mutating func swapClass() -> Bool {
        let candidates = instances
        guard !candidates.isEmpty else { return false }
        let uid = random.pick(candidates)
        mark(uid, "$class")
        let records = classRecords
        switch random.next() % 3 {
        case 0 where !records.isEmpty:
            model.objects[uid][field: "$class"] = .uid(UInt32(random.pick(records)))
        case 1 where !records.isEmpty:
            let record = random.pick(records)
            let name = random.pick(Self.classNames)
            model.objects[record][field: "$classname"] = .string(name)
            model.objects[record][field: "$classes"] = .array([.string(name), "NSObject"])
        default:
            let name = random.pick(Self.classNames)
            model.objects[uid][field: "$class"] = .uid(model.addClassRecord([name, "NSObject"]))
        }
        return true
    }

    private mutating func makeCycle() -> Bool {
        let containers = instances.filter { !sites(of: $0).isEmpty }
        guard !containers.isEmpty else { return false }
        let ancestor = random.pick(containers)
        // Objects reachable from the ancestor, breadth first (bounded: archives here are small).
        var reachable = [ancestor]
        var seen: Set<Int> = [ancestor]
        var position = 0
        while position < reachable.count, reachable.count < 500 {
            for site in sites(of: reachable[position]) {
                let next = Int(target(of: site))
                if next > 0, seen.insert(next).inserted, case .dictionary = model.objects[next] { reachable.append(next) }
            }
            position += 1
        }
        let inner = reachable.filter { !sites(of: $0).isEmpty }
        guard !inner.isEmpty else { return false }
        let site = random.pick(sites(of: random.pick(inner)))
        mark(site.uid, site.key)
        set(site, to: UInt32(ancestor))
        return true
    }

    private mutating func duplicateMember() -> Bool {
        let collections = instances.filter { uid in
            if case .array(let elements)? = model.objects[uid][field: "NS.objects"] { return !elements.isEmpty }
            return model.objects[uid][field: "NS.object.0"] != nil
        }
        guard !collections.isEmpty else { return false }
        let uid = random.pick(collections)
        mark(uid, "NS.objects")
        let isDictionary = model.objects[uid][field: "NS.keys"] != nil
        if case .array(var elements)? = model.objects[uid][field: "NS.objects"] {
            let position = Int(random.next() % UInt64(elements.count))
            var copy = elements[position]
            if random.chance(0.5), case .uid(let target) = copy {
                model.objects.append(model.objects[Int(target)])
                copy = .uid(UInt32(model.objects.count - 1))
            }
            elements.append(copy)
            model.objects[uid][field: "NS.objects"] = .array(elements)
            if isDictionary, case .array(var keys)? = model.objects[uid][field: "NS.keys"], keys.indices.contains(position) {
                keys.append(keys[position])
                model.objects[uid][field: "NS.keys"] = .array(keys)
            }
        } else {
            var count = 0
            while model.objects[uid][field: "NS.object.\(count)"] != nil { count += 1 }
            model.objects[uid][field: "NS.object.\(count)"] = model.objects[uid][field: "NS.object.\(Int(random.next() % UInt64(count)))"]
        }
        return true
    }

    // MARK: - Reading the model

    /// Objects with a `$class`.
    var instances: [Int] {
        model.objects.indices.filter { model.objects[$0][field: "$class"] != nil }
    }

    /// Class records (objects with a `$classname`).
    var classRecords: [Int] {
        model.objects.indices.filter { model.objects[$0][field: "$classname"] != nil }
    }

    /// Every UID held by an instance's fields (not `$class`).
    var uidSites: [Site] { instances.flatMap { sites(of: $0) } }

    func sites(of uid: Int) -> [Site] {
        guard case .dictionary(let fields) = model.objects[uid] else { return [] }
        var result: [Site] = []
        for field in fields where field.key != "$class" {
            switch field.value {
            case .uid: result.append(Site(uid: uid, key: field.key, element: nil))
            case .array(let elements):
                for (position, element) in elements.enumerated() {
                    if case .uid = element { result.append(Site(uid: uid, key: field.key, element: position)) }
                }
            default: continue
            }
        }
        return result
    }

    func target(of site: Site) -> UInt32 {
        let value = model.objects[site.uid][field: site.key]
        if let element = site.element, case .array(let elements)? = value, case .uid(let target) = elements[element] { return target }
        if case .uid(let target)? = value { return target }
        return 0
    }

    private mutating func set(_ site: Site, to target: UInt32) { setValue(site, to: .uid(target)) }

    mutating func setValue(_ site: Site, to value: PropertyListValue) {
        if let element = site.element, case .array(var elements)? = model.objects[site.uid][field: site.key] {
            elements[element] = value
            model.objects[site.uid][field: site.key] = .array(elements)
        } else {
            model.objects[site.uid][field: site.key] = value
        }
    }

    mutating func randomField() -> (Int, String)? {
        var fields: [(Int, String)] = []
        for uid in instances {
            guard case .dictionary(let entries) = model.objects[uid] else { continue }
            for entry in entries where entry.key != "$class" { fields.append((uid, entry.key)) }
        }
        return fields.isEmpty ? nil : random.pick(fields)
    }

    private mutating func randomValue() -> PropertyListValue {
        let count = UInt64(model.objects.count)
        switch random.next() % 10 {
        case 0: return .integer(random.pick([0, 1, -1, 7, 100000, Int128(Int64.max), 1 << 70]))
        case 1: return .real(random.pick([0.5, -1, 1e300, .nan, .infinity]))
        case 2: return .bool(random.chance(0.5))
        case 3: return .string(random.pick(["text", "", "Nowhere/City", "{1, 2}", "../d"]))
        case 4: return .data((0 ..< random.next() % 20).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 5, 6: return .uid(UInt32(random.next() % count))
        case 7: return .array((0 ..< random.next() % 3).map { _ in .uid(UInt32(random.next() % count)) })
        case 8: return .dictionary([])
        default: return .real(Double(random.next() % 1000) / 8)
        }
    }

    func kind(_ value: PropertyListValue) -> String {
        switch value {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .bool: "bool"
        case .date: "date"
        case .data: "data"
        case .uid: "uid"
        case .array: "array"
        case .set: "set"
        case .dictionary: "dictionary"
        case .null: "null"
        }
    }

    static let fieldNames = [
        "NS.objects", "NS.keys", "NS.string", "NS.bytes", "NS.data", "NS.time", "NS.base", "NS.relative", "NS.uuidbytes",
        "NS.special", "NS.rangeval.location", "NS.pointval", "NSCode", "NSDomain", "NSUserInfo", "NS.name", "NS.identifier",
        "NSRangeCount", "NSLocation", "NSLength", "NSRangeData", "NS.object.0", "NSString", "NSAttributes", "NSAttributeInfo",
        "NS.mantissa", "NS.exponent", "extra", "$$x",
    ]

    static let classNames = Array(Policy.foundationGroup).sorted() + ["NSObject", "NSProxy", "NSFont", "NSNumber"]
}
