import Foundation

extension Policy {
    /// Compiles a policy document (docs/POLICIES.md). Unknown fields are errors so that a typo
    /// cannot silently weaken a policy.
    /// A member named twice in one object is an error (`policy.duplicate_key`), never first or last wins.
    public static func load(json: [UInt8], name defaultName: String = "policy") throws(PolicyError) -> Policy {
        if let duplicate = JSONDuplicateKeys.first(in: json) {
            throw PolicyError(.duplicateKey, path: duplicate.pointer, "'\(duplicate.key)' is written twice in one object (byte \(duplicate.offset)); keep one")
        }
        // Strict RFC 8259 first, with line and column: the parser below is lenient (a trailing
        // comma passes) and only says "around character N".
        if let syntax = JSONSyntaxError.first(in: json) {
            var failure = PolicyError(.invalidJSON, path: "", "not valid JSON: \(syntax.message)")
            failure.syntaxError = syntax
            throw failure
        }
        let document: Any
        do {
            document = try JSONSerialization.jsonObject(with: Data(json), options: [])
        } catch {
            throw PolicyError(.invalidJSON, path: "", "not valid JSON: \(error.localizedDescription)")
        }
        guard let object = document as? [String: Any] else {
            throw PolicyError(.invalidJSON, path: "", "a policy is a JSON object")
        }
        var loader = PolicyLoader()
        return try loader.compile(object, defaultName: defaultName)
    }
}

/// Turns the JSON document into a compiled `Policy`.
private struct PolicyLoader {
    private struct RawSchema {
        var keys: [String: RawExpectation] = [:]
        var required: [String] = []
        var unknownKeys: Policy.UnknownKeys = .reject
        var extends: String?
    }

    private struct RawExpectation {
        var accepted: [String]
        var elements: [String]?
        var dictionaryKeys: [String]?
    }

    /// Declared direct subclasses, filled before expectations are expanded.
    private var subclasses: [String: [String]] = [:]

    mutating func compile(_ object: [String: Any], defaultName: String) throws(PolicyError) -> Policy {
        try Self.rejectUnknown(object, allowed: ["name", "description", "root", "allow", "classes", "onViolation", "limits", "inspection", "acknowledge"], at: "")
        let name = try Self.optionalString(object["name"], at: "/name") ?? defaultName
        _ = try Self.optionalString(object["description"], at: "/description")

        var rawSchemas: [String: RawSchema] = [:]
        if let classes = object["classes"] {
            guard let classes = classes as? [String: Any] else {
                throw PolicyError(.invalidValue, path: "/classes", "classes is an object of class name → schema")
            }
            for (className, value) in classes {
                rawSchemas[className] = try Self.schema(value, at: JSONPointer.appending("/classes", className))
            }
        }
        for (className, schema) in rawSchemas {
            guard let parent = schema.extends else { continue }
            guard rawSchemas[parent] != nil else {
                throw PolicyError(.unknownSuperclass, path: JSONPointer.appending("/classes", className) + "/extends",
                                  "'\(parent)' has no schema in classes")
            }
            subclasses[parent, default: []].append(className)
        }

        let allowNames = try Self.stringList(object["allow"] ?? [String](), at: "/allow")
        let allowed = expand(allowNames)
        let root = try object["root"].map { (value) throws(PolicyError) in expand(try Self.stringList(value, at: "/root")) }

        var schemas: [String: Policy.ClassSchema] = [:]
        for className in rawSchemas.keys {
            schemas[className] = try merged(className, rawSchemas)
        }
        var onViolation = Policy.ViolationAction.reject
        if let action = object["onViolation"] {
            guard let text = action as? String, let parsed = Policy.ViolationAction(rawValue: text) else {
                throw PolicyError(.invalidValue, path: "/onViolation", "onViolation is \"reject\" or \"redact\"")
            }
            onViolation = parsed
        }
        var limits = DecodeLimits()
        if let rawLimits = object["limits"] {
            guard let rawLimits = rawLimits as? [String: Any] else {
                throw PolicyError(.invalidValue, path: "/limits", "limits is an object of name → positive integer")
            }
            for (limitName, value) in rawLimits {
                let path = JSONPointer.appending("/limits", limitName)
                guard let number = value as? NSNumber, !Self.isBool(number), let integer = Int(exactly: number.doubleValue), integer > 0 else {
                    throw PolicyError(.invalidValue, path: path, "a limit is a positive integer")
                }
                guard limits.set(limitName, to: integer) else {
                    throw PolicyError(.unknownField, path: path, "unknown limit '\(limitName)'")
                }
            }
        }
        var policy = Policy(name: name, root: root, allowed: allowed, classes: schemas, onViolation: onViolation, limits: limits)
        if let inspection = object["inspection"] {
            guard let flag = inspection as? NSNumber, Self.isBool(flag) else {
                throw PolicyError(.invalidValue, path: "/inspection", "inspection is true or false")
            }
            policy.inspection = flag.boolValue
        }
        if let acknowledge = object["acknowledge"] {
            policy.acknowledged = try PolicyLint.acknowledgedClasses(try Self.stringList(acknowledge, at: "/acknowledge"))
        }
        try PolicyLint.rejectUnknownGroups(in: object)
        policy.lint = PolicyLint.findings(in: object, inspection: policy.inspection)
        return policy
    }

    /// Expands groups (`plist`, `foundation`, `*`) and inline kinds, and adds declared subclasses.
    private func expand(_ names: [String]) -> ClassSet {
        var set = ClassSet()
        for name in names {
            switch name {
            case "*": set.acceptsAnyClass = true
            case "plist": set.names.formUnion(Policy.plistGroup)
            case "foundation": set.names.formUnion(Policy.foundationGroup)
            case _ where Policy.namedGroups[name] != nil: set.names.formUnion(Policy.namedGroups[name] ?? [])
            default:
                if let kind = InlineKind(rawValue: name) { set.inlineKinds.insert(kind) } else { set.names.insert(name) }
            }
        }
        var pending = Array(set.names)
        while let name = pending.popLast() {
            for child in subclasses[name] ?? [] where set.names.insert(child).inserted { pending.append(child) }
        }
        return set
    }

    /// A schema with its ancestors' keys and required keys merged in (the class's own win).
    private func merged(_ className: String, _ raw: [String: RawSchema]) throws(PolicyError) -> Policy.ClassSchema {
        var chain = [className]
        var current = raw[className]!.extends
        while let parent = current {
            if chain.contains(parent) {
                throw PolicyError(.inheritanceCycle, path: JSONPointer.appending("/classes", className) + "/extends",
                                  "extends loops: \((chain + [parent]).joined(separator: " → "))")
            }
            chain.append(parent)
            current = raw[parent]?.extends
        }
        var keys: [String: Expectation] = [:]
        var required: [String] = []
        for ancestor in chain.reversed() {
            let schema = raw[ancestor]!
            for (key, rawExpectation) in schema.keys {
                keys[key] = Expectation(accepted: expand(rawExpectation.accepted),
                                        elements: rawExpectation.elements.map(expand),
                                        dictionaryKeys: rawExpectation.dictionaryKeys.map(expand))
            }
            required.append(contentsOf: schema.required.filter { !required.contains($0) })
        }
        let own = raw[className]!
        return Policy.ClassSchema(keys: keys, required: required, unknownKeys: own.unknownKeys, extends: own.extends)
    }

    private static func schema(_ value: Any, at path: String) throws(PolicyError) -> RawSchema {
        guard let object = value as? [String: Any] else {
            throw PolicyError(.invalidValue, path: path, "a class schema is an object")
        }
        try rejectUnknown(object, allowed: ["keys", "required", "unknownKeys", "extends", "description"], at: path)
        var schema = RawSchema()
        if let keys = object["keys"] {
            guard let keys = keys as? [String: Any] else {
                throw PolicyError(.invalidValue, path: path + "/keys", "keys is an object of key → expectation")
            }
            for (key, spec) in keys {
                schema.keys[key] = try expectation(spec, at: JSONPointer.appending(path + "/keys", key))
            }
        }
        if let required = object["required"] { schema.required = try stringList(required, at: path + "/required") }
        if let unknown = object["unknownKeys"] {
            guard let text = unknown as? String, let parsed = Policy.UnknownKeys(rawValue: text) else {
                throw PolicyError(.invalidValue, path: path + "/unknownKeys", "unknownKeys is \"reject\" or \"allow\"")
            }
            schema.unknownKeys = parsed
        }
        schema.extends = try optionalString(object["extends"], at: path + "/extends")
        _ = try optionalString(object["description"], at: path + "/description")
        return schema
    }

    /// `"NSString"`, `["NSString", "NSNull"]`, or `{"classes": […], "elements": […], "dictionaryKeys": […]}`.
    private static func expectation(_ value: Any, at path: String) throws(PolicyError) -> RawExpectation {
        if let object = value as? [String: Any] {
            try rejectUnknown(object, allowed: ["classes", "elements", "dictionaryKeys"], at: path)
            guard let classes = object["classes"] else {
                throw PolicyError(.invalidValue, path: path + "/classes", "an expectation object needs classes")
            }
            return RawExpectation(accepted: try stringList(classes, at: path + "/classes"),
                                  elements: try object["elements"].map { (value) throws(PolicyError) in try stringList(value, at: path + "/elements") },
                                  dictionaryKeys: try object["dictionaryKeys"].map { (value) throws(PolicyError) in try stringList(value, at: path + "/dictionaryKeys") })
        }
        return RawExpectation(accepted: try stringList(value, at: path))
    }

    private static func stringList(_ value: Any, at path: String) throws(PolicyError) -> [String] {
        if let single = value as? String { return [single] }
        guard let list = value as? [Any] else {
            throw PolicyError(.invalidValue, path: path, "expected a string or an array of strings")
        }
        var strings = [String]()
        for (index, element) in list.enumerated() {
            guard let string = element as? String, !string.isEmpty else {
                throw PolicyError(.invalidValue, path: JSONPointer.appending(path, index), "expected a non-empty string")
            }
            strings.append(string)
        }
        return strings
    }

    private static func optionalString(_ value: Any?, at path: String) throws(PolicyError) -> String? {
        guard let value else { return nil }
        guard let string = value as? String else { throw PolicyError(.invalidValue, path: path, "expected a string") }
        return string
    }

    private static func rejectUnknown(_ object: [String: Any], allowed: Set<String>, at path: String) throws(PolicyError) {
        for key in object.keys.sorted() where !allowed.contains(key) {
            throw PolicyError(.unknownField, path: JSONPointer.appending(path, key),
                              "unknown field '\(key)'; expected one of \(allowed.sorted().joined(separator: ", "))")
        }
    }

    private static func isBool(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c" && (number == NSNumber(value: true) || number == NSNumber(value: false))
    }
}
