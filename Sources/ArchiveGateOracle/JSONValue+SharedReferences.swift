import Foundation

/// ArchiveGate's plain JSON writes an object shared by several sites once, and `{"$ref": pointer}`
/// at the later sites (docs/JSON.md "JSON conventions"); Foundation's graph, written by `FoundationJSON`,
/// repeats it at every site. Before comparing, the shared references are expanded in place; a
/// `$ref` to an ancestor of its own (original) location is a cycle and stays, as `FoundationJSON`
/// tags cycles.
extension JSONValue {
    /// The document with every non-cycle `$ref` replaced by the value it points to; nil when the
    /// expansion would pass `maxNodes` (the oracle's graphs are small; a bigger one is a finding).
    func expandingSharedReferences(maxNodes: Int = 1_000_000) -> JSONValue? {
        var budget = maxNodes
        return expand(at: [], in: self, budget: &budget)
    }

    /// `self` lives at `location` in `document` (for a copied subtree: where the original is).
    private func expand(at location: [String], in document: JSONValue, budget: inout Int) -> JSONValue? {
        budget -= 1
        guard budget >= 0 else { return nil }
        switch self {
        case .array(let elements):
            var result: [JSONValue] = []
            for (index, element) in elements.enumerated() {
                guard let expanded = element.expand(at: location + [String(index)], in: document, budget: &budget) else { return nil }
                result.append(expanded)
            }
            return .array(result)
        case .object(let pairs):
            if pairs.count == 1, pairs[0].key == "$ref", let pointer = pairs[0].value.text {
                let target = Self.tokens(of: pointer)
                if target.count <= location.count, Array(location.prefix(target.count)) == target { return self }
                guard let value = document.value(at: target) else { return nil }
                return value.expand(at: target, in: document, budget: &budget)
            }
            var result: [JSONPair] = []
            for pair in pairs {
                guard let expanded = pair.value.expand(at: location + [pair.key], in: document, budget: &budget) else { return nil }
                result.append(JSONPair(key: pair.key, value: expanded))
            }
            return .object(result)
        default:
            return self
        }
    }

    /// The value at the unescaped pointer tokens `tokens`.
    private func value(at tokens: [String]) -> JSONValue? {
        var current = self
        for token in tokens {
            switch current {
            case .object: guard let next = current[token] else { return nil }; current = next
            case .array(let elements): guard let index = Int(token), elements.indices.contains(index) else { return nil }; current = elements[index]
            default: return nil
            }
        }
        return current
    }

    /// RFC 6901: `/a~1b/0` → `["a/b", "0"]`.
    private static func tokens(of pointer: String) -> [String] {
        guard !pointer.isEmpty else { return [] }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }
}
