import ArchiveGateCore

/// What every successfully read `PropertyList` must satisfy, whatever bytes it came from. A fuzz
/// target calls `check` after each successful read; a breach traps, and libFuzzer keeps the input.
///
/// The renderers and the keyed-archive layer index `objects`, `references` and `bytes` without
/// re-checking (the reader promised), so a broken promise here is a memory-safety bug one layer up.
public enum PropertyListInvariants {
    /// Walks every object once: indices, ranges and payloads within bounds, keys strings, no
    /// duplicate keys, ASCII strings 7-bit.
    public static func check(_ plist: PropertyList) {
        let objects = plist.objects
        let references = plist.references
        let storage = plist.bytes.count
        require(!objects.isEmpty, "a property list has at least its root")
        require(plist.root >= 0 && plist.root < objects.count, "root \(plist.root) outside \(objects.count) objects")
        for index in objects.indices {
            let object = objects[index]
            switch object.kind {
            case .null:
                require(plist.format == .binary, "null only comes from binary input")
            case .bool:
                require(object.first <= 1, "bool \(index) holds \(object.first)")
            case .integer, .real, .date:
                if object.kind == .date { require(Double(bitPattern: object.first).isFinite, "date \(index) is not finite") }
            case .uid:
                require(object.first <= UInt64(UInt32.max), "uid \(index) is \(object.first)")
            case .data, .asciiString, .utf8String:
                let end = checkedEnd(object.first, object.second, scale: 1)
                require(end.map { $0 <= UInt64(storage) } ?? false, "\(object.kind) \(index) spans past the storage")
                if object.kind == .asciiString, let end {
                    for offset in Int(object.first) ..< Int(end) {
                        require(plist.bytes[offset] < 0x80, "ASCII string \(index) holds byte \(plist.bytes[offset])")
                    }
                }
                if object.kind == .utf8String, let end {
                    let slice = plist.bytes[Int(object.first) ..< Int(end)]
                    require(String(validating: slice, as: UTF8.self) != nil, "UTF-8 string \(index) is not valid UTF-8")
                }
            case .utf16String:
                let end = checkedEnd(object.first, object.second, scale: 2)
                require(end.map { $0 <= UInt64(storage) } ?? false, "UTF-16 string \(index) spans past the storage")
            case .array, .set, .dictionary:
                let scale: UInt64 = object.kind == .dictionary ? 2 : 1
                let end = checkedEnd(object.first, object.second, scale: scale)
                require(end.map { $0 <= UInt64(references.count) } ?? false, "container \(index) spans past the references")
                for child in plist.children(of: index) {
                    require(Int(child) < objects.count, "container \(index) refers to \(child) of \(objects.count)")
                }
                if object.kind == .dictionary { checkKeys(plist, dictionary: index) }
            }
        }
    }

    /// Two reads of the same bytes must give the same table.
    public static func requireIdentical(_ first: PropertyList, _ second: PropertyList) {
        require(first.format == second.format, "format differs between two reads")
        require(first.root == second.root, "root differs between two reads")
        require(first.objects == second.objects, "objects differ between two reads")
        require(first.references == second.references, "references differ between two reads")
        require(first.bytes == second.bytes, "storage differs between two reads")
    }

    private static func checkKeys(_ plist: PropertyList, dictionary index: Int) {
        var seen = Set<[UInt16]>()
        for pair in 0 ..< plist.count(of: index) {
            let key = plist.dictionaryKey(index, pair: pair)
            require(plist.objects[key].isString, "dictionary \(index) has a non-string key \(key)")
            guard let text = plist.string(at: key) else { continue }
            // Compared by UTF-16 code units, as the readers do: canonical equivalence is not equality.
            require(seen.insert(Array(text.utf16)).inserted, "dictionary \(index) repeats key '\(text)'")
        }
    }

    private static func checkedEnd(_ start: UInt64, _ count: UInt64, scale: UInt64) -> UInt64? {
        let (length, overflowLength) = count.multipliedReportingOverflow(by: scale)
        let (end, overflowEnd) = start.addingReportingOverflow(length)
        return overflowLength || overflowEnd ? nil : end
    }
}

/// Traps with `message` when `condition` is false: libFuzzer records the input as a crash.
@inline(__always)
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("fuzz invariant broken: \(message())") }
}
