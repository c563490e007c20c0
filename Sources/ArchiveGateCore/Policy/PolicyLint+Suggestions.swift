import Foundation

/// Typos in class lists. A misspelt group (`"fundation"`) admits nothing, so every archive is
/// rejected: a load error (`policy.unknown_group`) with the nearest group. A misspelt class name
/// (`"NSStrnig"`) is a legal custom class name, so it is a warning `policy check` prints
/// (`lint.unknown_class`, `--strict` fails on it), with the nearest known name.
extension PolicyLint {
    /// Every name of a class list — `root`, `allow`, and each key expectation's `classes`,
    /// `elements` and `dictionaryKeys` — with its JSON pointer and whether it is in `root`.
    static func classListNames(in document: [String: Any]) -> [(name: String, path: String, isRoot: Bool)] {
        var found: [(String, String, Bool)] = []
        for (name, path) in names(document["root"], at: "/root") { found.append((name, path, true)) }
        for (name, path) in names(document["allow"], at: "/allow") { found.append((name, path, false)) }
        guard let classes = document["classes"] as? [String: Any] else { return found }
        for className in classes.keys.sorted() {
            let classPath = JSONPointer.appending("/classes", className)
            guard let schema = classes[className] as? [String: Any], let keys = schema["keys"] as? [String: Any] else { continue }
            for key in keys.keys.sorted() {
                let keyPath = JSONPointer.appending(classPath + "/keys", key)
                let fields: [(Any?, String)] = (keys[key] as? [String: Any]).map { object in
                    ["classes", "elements", "dictionaryKeys"].map { (object[$0], keyPath + "/" + $0) }
                } ?? [(keys[key], keyPath)]
                for (value, path) in fields {
                    for (name, namePath) in names(value, at: path) { found.append((name, namePath, false)) }
                }
            }
        }
        return found
    }

    /// The lowercase names a class list may hold: the groups and the inline kinds.
    static let lowercaseNames: Set<String> = Set(Policy.namedGroups.keys).union(InlineKind.allCases.map(\.rawValue))

    /// Throws `policy.unknown_group` for the first name that is written like a group (lowercase
    /// letters, digits and `-`: no class is spelt so) but is no group and no inline kind.
    static func rejectUnknownGroups(in document: [String: Any]) throws(PolicyError) {
        for (name, path, _) in classListNames(in: document) where looksLikeGroup(name) && !lowercaseNames.contains(name) {
            let hint = closest(to: name, among: lowercaseNames).map { "; did you mean '\($0)'?" } ?? ""
            throw PolicyError(.unknownGroup, path: path,
                              "'\(name)' is no group or inline kind (groups: \(Policy.namedGroups.keys.sorted().joined(separator: ", ")))\(hint)")
        }
    }

    private static func looksLikeGroup(_ name: String) -> Bool {
        name.utf8.allSatisfy { (0x61 ... 0x7A).contains($0) || (0x30 ... 0x39).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// The class names the built-in knowledge covers: every class of the named groups (the
    /// Foundation definitions table) and every class of the danger catalogue.
    public static let knownClassNames: Set<String> = {
        var names = Set(Policy.namedGroups.values.joined())
        for entry in DangerCatalogue.builtIn.entries {
            if case .classes(let classes) = entry.match { names.formUnion(classes) }
        }
        return names
    }()

    /// Warnings for the class names of a policy document (already loaded: `Policy.load` succeeded)
    /// that no schema of the policy, no known class (`knownClassNames`) and none of `sampleClasses`
    /// uses: each names the nearest known name when one is close (`did you mean 'NSString'?`).
    public static func classNameWarnings(json: [UInt8], sampleClasses: Set<String> = []) -> [Finding] {
        guard let document = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else { return [] }
        let schemas = Set((document["classes"] as? [String: Any])?.keys.map { $0 } ?? [])
        let known = knownClassNames.union(schemas).union(sampleClasses)
        var listed = classListNames(in: document).map { ($0.name, $0.path) }
        if let acknowledged = document["acknowledge"] { listed += names(acknowledged, at: "/acknowledge") }
        var warnings: [Finding] = []
        for (name, path) in listed where name != "*" && name != "NSObject" && !lowercaseNames.contains(name) && !known.contains(name) {
            let hint = closest(to: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
            warnings.append(Finding(code: .unknownClass, path: path,
                                    message: "'\(name)' is not a known class, has no schema here and no sample uses it\(hint)"))
        }
        return warnings
    }

    /// The candidate nearest to `name` by edit distance (case differences cost nothing extra when
    /// they are the only difference), when it is close enough to be a typo: at most a quarter of
    /// the name's length, and at least one edit.
    static func closest(to name: String, among candidates: Set<String>) -> String? {
        let target = Array(name.unicodeScalars)
        guard target.count <= 256 else { return nil }
        let allowed = max(1, target.count / 4)
        var best: (distance: Int, name: String)?
        for candidate in candidates.sorted() {
            if candidate.lowercased() == name.lowercased(), candidate != name { return candidate }
            let other = Array(candidate.unicodeScalars)
            guard abs(other.count - target.count) <= allowed else { continue }
            let distance = editDistance(target, other)
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (distance, candidate) }
        }
        return best?.name
    }

    /// Levenshtein distance with adjacent transpositions (`NSStrnig` → `NSString` is one edit).
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0 ... b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1 ... a.count {
            current[0] = i
            for j in 1 ... b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
