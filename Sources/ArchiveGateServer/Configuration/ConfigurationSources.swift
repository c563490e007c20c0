import Foundation

/// The raw values of every source, highest priority first: flags, `ARCHIVEGATE_*` variables,
/// `server.json`. Built strictly: an unknown key or variable, or a value of the wrong type or
/// shape for its key, is a `ConfigurationError` before anything reads a value.
struct ConfigurationSources {
    private struct Setting {
        let raw: RawConfigurationValue
        /// Where it was written, for messages: `server.json`, `ARCHIVEGATE_HTTP_PORT`, `--port`.
        let origin: String
    }

    /// Key name → setting, the highest-priority source's only.
    private var settings: [String: Setting] = [:]
    private static let keysByName: [String: any AnyConfigurationKey] =
        Dictionary(uniqueKeysWithValues: ConfigurationDefaults.all.map { ($0.name, $0) })

    /// - Parameters:
    ///   - file: `server.json` parsed, or nil without one; `filePath` names it in messages.
    ///   - environment: the process environment; only `ARCHIVEGATE_*` names are looked at.
    ///   - flags: key name (`http.port`) → text, from command-line flags.
    init(file: ConfigurationJSON?, filePath: String, environment: [String: String], flags: [String: String]) throws(ConfigurationError) {
        if let file {
            guard case .object(let object) = file else {
                throw ConfigurationError(.invalidFile, key: "-", "\(filePath) must hold a JSON object, not \(file.typeName)")
            }
            try flatten(object, prefix: "", filePath: filePath)
        }
        let keysByVariable = Dictionary(uniqueKeysWithValues: ConfigurationDefaults.all.map { ($0.environmentName, $0) })
        for (variable, value) in environment.sorted(by: { $0.key < $1.key }) where variable.hasPrefix("ARCHIVEGATE_") {
            if ConfigurationDefaults.otherEnvironmentVariables.contains(variable) { continue }
            guard let key = keysByVariable[variable] else {
                throw ConfigurationError(.unknownKey, key: variable, "unknown ARCHIVEGATE_* variable\(Self.suggestion(for: variable, among: keysByVariable.keys)); the variables are listed in docs/OPERATIONS.md, Configuration")
            }
            try store(.text(value), origin: variable, for: key)
        }
        for (name, value) in flags.sorted(by: { $0.key < $1.key }) {
            guard let key = Self.keysByName[name] else {
                throw ConfigurationError(.unknownKey, key: name, "not a configuration key")
            }
            try store(.text(value), origin: "flag", for: key)
        }
    }

    /// The value of `key`, or its default when no source sets it.
    func value<Value>(_ key: ConfigurationKey<Value>) throws(ConfigurationError) -> Value {
        try valueIfSet(key) ?? key.defaultValue
    }

    /// The value of `key` when a source sets it; nil otherwise (for defaults taken from another key).
    func valueIfSet<Value>(_ key: ConfigurationKey<Value>) throws(ConfigurationError) -> Value? {
        guard let setting = settings[key.name] else { return nil }
        switch key.parse(setting.raw) {
        case .success(let value): return value
        case .failure(let problem): throw ConfigurationError(.invalidValue, key: key.name, origin: setting.origin, problem.message)
        }
    }

    /// Where `key` was set, for start-up log lines; nil when it has its default.
    func origin(of key: any AnyConfigurationKey) -> String? { settings[key.name]?.origin }

    private mutating func store(_ raw: RawConfigurationValue, origin: String, for key: any AnyConfigurationKey) throws(ConfigurationError) {
        if let problem = key.check(raw) { throw ConfigurationError(.invalidValue, key: key.name, origin: origin, problem.message) }
        settings[key.name] = Setting(raw: raw, origin: origin)
    }

    /// Walks nested objects to dotted key names; `$comment` entries are documentation.
    private mutating func flatten(_ object: [String: ConfigurationJSON], prefix: String, filePath: String) throws(ConfigurationError) {
        for (name, value) in object.sorted(by: { $0.key < $1.key }) where name != "$comment" {
            let path = prefix + name
            if let key = Self.keysByName[path] {
                guard !key.isEnvironmentOnly else {
                    throw ConfigurationError(.invalidValue,key: path, origin: filePath, "is never read from a file: set \(key.environmentName) (or use the key's file variant)")
                }
                try store(.json(value), origin: filePath, for: key)
            } else if Self.keysByName.keys.contains(where: { $0.hasPrefix(path + ".") }) {
                guard case .object(let nested) = value else {
                    throw ConfigurationError(.invalidValue, key: path, origin: filePath, "is a section: expected an object, got \(value.typeName)")
                }
                try flatten(nested, prefix: path + ".", filePath: filePath)
            } else {
                throw ConfigurationError(.unknownKey, key: path, origin: filePath, "unknown key\(Self.suggestion(for: path, among: Self.keysByName.keys))")
            }
        }
    }

    /// "; did you mean 'limits.maxBodyBytes'?" when a known name is a few edits away.
    private static func suggestion(for name: String, among candidates: some Sequence<String>) -> String {
        let scored = candidates.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }), best.1 <= 3 else { return "" }
        return "; did you mean '\(best.0)'?"
    }

    private static func editDistance(_ left: String, _ right: String) -> Int {
        let a = Array(left.utf8), b = Array(right.utf8)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
