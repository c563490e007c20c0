import ArchiveGateCore

/// `convert --format dot`: the archive's object graph as Graphviz DOT, for reports. Objects are
/// nodes labelled with their class (strings with their quoted text, cut at 40 characters; other
/// inline scalars with their value), fields that reference objects are edges labelled with the key
/// (`NS.objects[2]` for array elements), and the objects a violation names, or whose class a danger
/// finding names, are red with the code.
///
/// Drawn from the archive's own fields (`KeyedArchive.fieldReferences`), so the graph is exactly
/// the archive's, cycles included.
enum GraphvizExport {
    /// DOT text for `archive` marked with `report`.
    static func dot(archive: KeyedArchive, report: ValidationReport) -> String {
        var marks: [Int: [String]] = [:]
        for violation in report.violations { if let uid = violation.uid { marks[uid, default: []].append(violation.code.rawValue) } }
        let flaggedClasses = Dictionary(grouping: report.findings, by: \.className).mapValues { $0.map(\.code.rawValue) }
        let plist = archive.plist

        var lines = ["digraph archive {", "  node [shape=box, fontname=\"Helvetica\"];", "  edge [fontname=\"Helvetica\", fontsize=10];",
                     "  top [shape=plaintext, label=\"$top\"];"]
        for entry in archive.top.sorted(by: { $0.name < $1.name }) where entry.inlineValue == nil && entry.uid > 0 {
            lines.append("  top -> n\(entry.uid) [label=\(quoted(entry.name))];")
        }
        for uid in 1 ..< archive.objectCount {
            guard let archiveClass = archive.archiveClass(of: uid) else { continue }  // a class record, drawn as its objects' labels
            let index = archive.plistIndex(of: uid)
            var codes = marks[uid] ?? []
            var edges: [(key: String, element: Int, target: Int)] = []
            let label: String
            if archiveClass.isInline {
                label = scalarLabel(plist, index)
            } else {
                label = archiveClass.name
                codes += flaggedClasses[archiveClass.name] ?? []
                for reference in archive.fieldReferences(of: uid) where reference.target > 0 {
                    let key = plist.string(at: plist.dictionaryKey(index, pair: reference.pair)) ?? ""
                    edges.append((key, reference.element ?? -1, reference.target))
                }
                edges.sort { ($0.key, $0.element) < ($1.key, $1.element) }
            }
            let style = codes.isEmpty ? "" : ", color=red, fontcolor=red, penwidth=2"
            let text = codes.isEmpty ? label : label + "\n" + codes.joined(separator: "\n")
            lines.append("  n\(uid) [label=\(quoted(text))\(style)];")
            for (key, element, target) in edges {
                let name = element < 0 ? key : "\(key)[\(element)]"
                lines.append("  n\(uid) -> n\(target) [label=\(quoted(name))\(codes.isEmpty ? "" : ", color=red")];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The label of an inline scalar: a string's quoted text (cut at 40 characters), else its value.
    private static func scalarLabel(_ plist: PropertyList, _ index: Int) -> String {
        if let string = plist.string(at: index) {
            return "\"" + (string.count > 40 ? String(string.prefix(40)) + "…" : string) + "\""
        }
        switch plist.kind(of: index) {
        case .integer: return "\(plist.integer128(plist[index]))"
        case .real: return "\(plist.realValue(at: index))"
        case .bool: return plist.boolValue(at: index) ? "true" : "false"
        case .data: return "\(plist.data(at: index)?.count ?? 0) bytes"
        case .date: return "date \(plist.realValue(at: index))"
        default: return "\(plist.kind(of: index))"
        }
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
