import ArchiveGateCore
import Foundation

// Prints how ArchiveGate's reader reads each file named on the command line, one JSON line per
// file, for scripts/fuzz-differential to compare with Python's plistlib:
//
//     {"file": "…", "value": V}  or  {"file": "…", "error": "plist.…"}  or  {"file": "…", "skip": "…"}
//
// V is tagged so that nothing is lost: {"string": s}, {"integer": "decimal"}, {"real": "hex bits"},
// {"bool": b}, {"date": seconds}, {"data": "hex"}, {"uid": n}, {"array": [V]}, {"set": [V]},
// {"dict": [[key, V]]}, {"null": true}. Graphs deeper than 100 (cycles included) or expanding to
// more than 100,000 nodes (shared-reference bombs) are skipped.
// Not a fuzz target: a plain program, built in the same scratch folder.

@main
struct FuzzPlistDump {
    nonisolated(unsafe) static var budget = 0

    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            var line: [String: Any] = ["file": path]
            if let data = FileManager.default.contents(atPath: path) {
                do {
                    let plist = try PropertyList.read(Array(data))
                    budget = 100_000
                    if let value = tagged(plist, plist.root, depth: 0) { line["value"] = value } else { line["skip"] = "deeper than 100 or over 100,000 nodes" }
                } catch {
                    line["error"] = error.code.rawValue
                }
            } else {
                line["skip"] = "unreadable"
            }
            let json = try! JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
            print(String(decoding: json, as: UTF8.self))
        }
    }

    static func tagged(_ plist: PropertyList, _ index: Int, depth: Int) -> Any? {
        budget -= 1
        guard depth <= 100, budget >= 0 else { return nil }
        let object = plist[index]
        switch object.kind {
        case .null: return ["null": true]
        case .bool: return ["bool": object.first != 0]
        case .integer: return ["integer": String(plist.integer128(object))]
        case .real: return ["real": String(object.first, radix: 16)]
        case .date: return ["date": Double(bitPattern: object.first)]
        case .data: return ["data": plist.data(at: index)!.map { String(format: "%02x", $0) }.joined()]
        case .asciiString, .utf8String, .utf16String: return ["string": plist.string(at: index)!]
        case .uid: return ["uid": Int(object.first)]
        case .array, .set:
            var elements = [Any]()
            for child in plist.children(of: index) {
                guard let value = tagged(plist, Int(child), depth: depth + 1) else { return nil }
                elements.append(value)
            }
            return [object.kind == .array ? "array" : "set": elements]
        case .dictionary:
            var pairs = [Any]()
            for pair in 0 ..< plist.count(of: index) {
                guard let value = tagged(plist, plist.dictionaryValue(index, pair: pair), depth: depth + 1) else { return nil }
                pairs.append([plist.string(at: plist.dictionaryKey(index, pair: pair))!, value])
            }
            return ["dict": pairs]
        }
    }
}
