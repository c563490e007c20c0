/// Why each rule of a suggested policy is there (`policy suggest --explain`): one line per rule,
/// naming what asked for it and the samples it was seen in, in the order of the policy document.
extension PolicySuggester {
    /// The explanation lines, each starting with the JSON pointer of the rule it explains.
    public func explanation() -> [String] {
        var lines: [String] = []
        for name in rootClasses.keys.sorted() {
            lines.append("/root \(quote(name)): at $top in \(list(rootClasses[name]!))")
        }
        for kind in rootInlineKinds.keys.sorted() {
            let use = rootInlineKinds[kind]!
            lines.append("/root \(quote(kind)): inline $top value\(use.names.count == 1 ? "" : "s") \(names(use.names)) in \(list(use.samples))")
        }
        for group in groups.keys.sorted() {
            let use = groups[group]!
            lines.append("/allow \(quote(group)): the group of \(names(use.names)) in \(list(use.samples))")
        }
        for className in schemas.keys.sorted() {
            let observed = schemas[className]!
            lines.append("/allow \(quote(className)): a class with no Foundation definition, \(observed.instances) instance\(observed.instances == 1 ? "" : "s") in \(list(observed.samples)); its keys are in /classes")
        }
        for name in acknowledgements.keys.sorted() {
            let use = acknowledgements[name]!
            lines.append("/acknowledge \(quote(name)): \(names(use.names)) in \(list(use.samples)); the samples hold it, so the suggestion accepts it: remove it unless you mean to")
        }
        for className in schemas.keys.sorted() {
            let observed = schemas[className]!
            let required = Set(requiredKeys(observed))
            for key in observed.keyOrder {
                let pointer = JSONPointer.appending(JSONPointer.appending("/classes", className) + "/keys", key)
                let classes = observed.keyClasses[key]!.sorted().map(quote).joined(separator: ", ")
                let count = observed.nonNilCounts[key] ?? 0
                var line = "\(pointer) [\(classes)]: set in \(count) of \(observed.instances) instance\(observed.instances == 1 ? "" : "s")"
                if required.contains(key) {
                    line += "; required: every instance has it"
                } else if let lacking = observed.firstLacking[key] {
                    line += "; not required: absent or nil in \(label(lacking))"
                } else {
                    line += "; not required: nil where it is set"
                }
                lines.append(line)
            }
            if !observed.unnameableKeys.isEmpty {
                let pointer = JSONPointer.appending("/classes", className) + "/unknownKeys"
                lines.append("\(pointer) \"allow\": \(names(observed.unnameableKeys)) hold a plain property-list array or dictionary in place, which no key expectation can name; their elements are still checked against /allow")
            }
        }
        return lines
    }

    private func label(_ sample: Int) -> String {
        samples.indices.contains(sample) ? samples[sample] : "a sample"
    }

    /// `3 samples (a.plist, b.plist, c.plist)`, the first three named.
    private func list(_ indices: Set<Int>) -> String {
        let sorted = indices.sorted()
        let shown = sorted.prefix(3).map(label).joined(separator: ", ")
        let more = sorted.count > 3 ? ", +\(sorted.count - 3) more" : ""
        return "\(sorted.count) sample\(sorted.count == 1 ? "" : "s") (\(shown)\(more))"
    }

    private func names(_ names: Set<String>) -> String {
        let sorted = names.sorted()
        let shown = sorted.prefix(6).joined(separator: ", ")
        return sorted.count > 6 ? shown + " and \(sorted.count - 6) more" : shown
    }
}
