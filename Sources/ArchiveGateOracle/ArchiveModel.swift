import ArchiveGateCore

/// A keyed archive as an editable tree: the top-level dictionary's entries, with `$objects`
/// pulled out so mutations can index it. Written back with ArchiveGateCore's own binary writer,
/// which writes UIDs exactly (corelibs' PropertyListSerialization hides them in opaque objects).
struct ArchiveModel {
    var header: [PropertyListValue.Entry]
    var objects: [PropertyListValue]

    init?(bytes: [UInt8]) {
        guard let plist = try? PropertyList.read(bytes), case .dictionary(let entries) = Self.value(plist, plist.root) else { return nil }
        var header: [PropertyListValue.Entry] = []
        var objects: [PropertyListValue]?
        for entry in entries {
            if entry.key == "$objects", case .array(let list) = entry.value { objects = list } else { header.append(entry) }
        }
        guard let objects else { return nil }
        self.header = header
        self.objects = objects
    }

    var bytes: [UInt8] {
        var entries = header
        entries.append(.init(key: "$objects", value: .array(objects)))
        return BinaryPropertyListWriter.write(.dictionary(entries))
    }

    /// The `$classname` of object `uid`'s class record, if it has one.
    func className(of uid: Int) -> String? {
        guard objects.indices.contains(uid), case .dictionary(let fields) = objects[uid],
              case .uid(let classUID)? = fields.first(where: { $0.key == "$class" })?.value,
              objects.indices.contains(Int(classUID)), case .dictionary(let record) = objects[Int(classUID)],
              case .string(let name)? = record.first(where: { $0.key == "$classname" })?.value else { return nil }
        return name
    }

    /// Appends a class record and returns its UID.
    mutating func addClassRecord(_ chain: [String]) -> UInt32 {
        objects.append(.dictionary(["$classname": .string(chain[0]), "$classes": .array(chain.map { .string($0) })]))
        return UInt32(objects.count - 1)
    }

    /// The tree of a flat property list, from `index` down (property lists are acyclic by shape).
    static func value(_ plist: PropertyList, _ index: Int) -> PropertyListValue {
        let object = plist[index]
        switch object.kind {
        case .null: return .null
        case .bool: return .bool(object.first != 0)
        case .integer: return .integer(plist.integer128(object))
        case .real: return .real(Double(bitPattern: object.first))
        case .date: return .date(Double(bitPattern: object.first))
        case .data: return .data(plist.data(at: index).map { Array($0) } ?? [])
        case .asciiString, .utf8String, .utf16String: return .string(plist.string(at: index) ?? "")
        case .uid: return .uid(UInt32(object.first))
        case .array: return .array(plist.children(of: index).map { value(plist, Int($0)) })
        case .set: return .set(plist.children(of: index).map { value(plist, Int($0)) })
        case .dictionary:
            return .dictionary((0 ..< plist.count(of: index)).map { pair in
                .init(key: plist.string(at: plist.dictionaryKey(index, pair: pair)) ?? "", value: value(plist, plist.dictionaryValue(index, pair: pair)))
            })
        }
    }
}

extension PropertyListValue {
    /// The value of `key` in a dictionary.
    subscript(field key: String) -> PropertyListValue? {
        get {
            guard case .dictionary(let entries) = self else { return nil }
            return entries.first { $0.key == key }?.value
        }
        set {
            guard case .dictionary(var entries) = self else { return }
            if let position = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[position].value = newValue } else { entries.remove(at: position) }
            } else if let newValue {
                entries.append(.init(key: key, value: newValue))
            }
            self = .dictionary(entries)
        }
    }
}
