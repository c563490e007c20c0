/// Over-broad policies, found when a policy document is loaded. A gate tenant (not
/// `"inspection": true`) whose policy has any finding is refused at server start and by
/// `archivegate policy check --strict`: an allow-list that admits everything is no allow-list.
public enum PolicyLint {
    /// One thing the policy's author should fix.
    public struct Finding: Hashable, Sendable, Codable, CustomStringConvertible {
        /// Which over-broad rule (`LintCode`: `lint.any_class`, `lint.nsobject`, `lint.group_root`).
        public var code: LintCode
        /// JSON pointer into the policy document.
        public var path: String
        public var message: String

        public var description: String { "\(code) at \(path.isEmpty ? "/" : path): \(message)" }
    }

    /// The group names a policy may list (`PolicyLoader.expand`).
    static let groupNames: Set<String> = Set(Policy.namedGroups.keys).union(["*"])

    /// Every lint finding of a policy document whose structure already loaded. An inspection
    /// policy is meant to be broad, so it has none.
    static func findings(in document: [String: Any], inspection: Bool) -> [Finding] {
        guard !inspection else { return [] }
        var found: [Finding] = []
        for (name, namePath, isRoot) in classListNames(in: document) {
            if name == "*" {
                found.append(Finding(code: .anyClass, path: namePath,
                                     message: "'*' admits every class; only an \"inspection\": true policy may say so"))
            } else if name == "NSObject" {
                found.append(Finding(code: .nsobject, path: namePath,
                                     message: "'NSObject' stands for every class; name the classes you expect"))
            } else if isRoot, groupNames.contains(name) {
                found.append(Finding(code: .groupRoot, path: namePath,
                                     message: "the root admits the whole '\(name)' group; name the root classes you expect"))
            }
        }
        return found
    }

    /// The names of a string-or-list value with their JSON pointers.
    static func names(_ value: Any?, at path: String) -> [(String, String)] {
        if let single = value as? String { return [(single, path)] }
        guard let list = value as? [Any] else { return [] }
        return list.enumerated().compactMap { index, element in
            (element as? String).map { ($0, JSONPointer.appending(path, index)) }
        }
    }

    /// Validates `acknowledge`: exact class names only. A wildcard or a group would acknowledge
    /// entries nobody has read, so it is a load error.
    static func acknowledgedClasses(_ names: [String]) throws(PolicyError) -> Set<String> {
        for (index, name) in names.enumerated() where name.contains("*") || groupNames.contains(name) {
            throw PolicyError(.invalidValue, path: JSONPointer.appending("/acknowledge", index),
                              "acknowledge names classes one by one; '\(name)' is a wildcard or a group")
        }
        return Set(names)
    }
}
