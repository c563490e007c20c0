import ArchiveGateCore
import Foundation

/// `convert --format dot`: the archive's object graph as Graphviz DOT, for reports. Objects are
/// nodes labelled with their class (strings with their quoted text, cut at 40 characters), fields
/// that reference objects are edges labelled with the key (`NS.objects[2]` for array elements), and
/// the objects a violation names, or whose class a danger finding names, are red with the code.
///
/// Built from the typed (lossless) rendering, so the graph is exactly the archive's, cycles included.
enum GraphvizExport {
    /// DOT text for `typedJSON` (an `ArchiveInspector` typed rendering) marked with `report`.
    static func dot(typedJSON: [UInt8], report: ValidationReport) throws -> String {
        guard let document = try JSONSerialization.jsonObject(with: Data(typedJSON)) as? [String: Any],
              let objects = document["$objects"] as? [Any], let top = document["$top"] as? [String: Any] else {
            throw CLIFailure.usage("the typed rendering has no $objects/$top")
        }
        var marks: [Int: [String]] = [:]
        for violation in report.violations { if let uid = violation.uid { marks[uid, default: []].append(violation.code.rawValue) } }
        let flaggedClasses = Dictionary(grouping: report.findings, by: \.className).mapValues { $0.map(\.code.rawValue) }

        var lines = ["digraph archive {", "  node [shape=box, fontname=\"Helvetica\"];", "  edge [fontname=\"Helvetica\", fontsize=10];",
                     "  top [shape=plaintext, label=\"$top\"];"]
        for (name, value) in top.sorted(by: { $0.key < $1.key }) {
            if let uid = uid(value), uid > 0 { lines.append("  top -> n\(uid) [label=\(quoted(name))];") }
        }
        for (index, object) in objects.enumerated() where index > 0 {
            var label: String
            var codes = marks[index] ?? []
            var edges: [(String, Int)] = []
            switch object {
            case let string as String:
                label = "\"" + (string.count > 40 ? String(string.prefix(40)) + "…" : string) + "\""
            case let fields as [String: Any]:
                guard let classUID = uid(fields["$class"]), objects.indices.contains(classUID),
                      let record = objects[classUID] as? [String: Any], let className = record["$classname"] as? String else {
                    continue  // a class record, drawn as its objects' labels
                }
                label = className
                codes += flaggedClasses[className] ?? []
                for (key, value) in fields.sorted(by: { $0.key < $1.key }) where key != "$class" {
                    if let target = uid(value) {
                        edges.append((key, target))
                    } else if let elements = value as? [Any] {
                        for (position, element) in elements.enumerated() {
                            if let target = uid(element) { edges.append(("\(key)[\(position)]", target)) }
                        }
                    }
                }
            default:
                label = String(describing: object)
            }
            let style = codes.isEmpty ? "" : ", color=red, fontcolor=red, penwidth=2"
            let text = codes.isEmpty ? label : label + "\n" + codes.joined(separator: "\n")
            lines.append("  n\(index) [label=\(quoted(text))\(style)];")
            for (key, target) in edges where target > 0 && objects.indices.contains(target) {
                lines.append("  n\(index) -> n\(target) [label=\(quoted(key))\(codes.isEmpty ? "" : ", color=red")];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The UID of a typed-JSON reference `{"$uid": n}`.
    private static func uid(_ value: Any?) -> Int? {
        guard let reference = value as? [String: Any], reference.count == 1 else { return nil }
        return (reference["$uid"] as? NSNumber)?.intValue
    }

    /// A DOT string literal.
    private static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case _ where character.unicodeScalars.allSatisfy({ $0.value < 0x20 || $0.value == 0x7F }): result += "?"
            default: result.append(character)
            }
        }
        return result + "\""
    }
}
