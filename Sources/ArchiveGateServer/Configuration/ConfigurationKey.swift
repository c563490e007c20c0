/// One key of the configuration: its name in `server.json`, its `ARCHIVEGATE_*` variable, its
/// default and how a raw value is checked. Every key lives in the one table of
/// `ConfigurationKey+Table.swift`; the loader, the docs/OPERATIONS.md check and the server.json check read it.
struct ConfigurationKey<Value: Sendable>: AnyConfigurationKey {
    /// Dotted path in `server.json`: `http.port`.
    let name: String
    /// Used when no source sets the key.
    let defaultValue: Value
    /// How docs/OPERATIONS.md and server.json write the default: a JSON value, or (for `fetch.maxBytes`) the
    /// key whose value it defaults to.
    let documentedDefault: DocumentedDefault
    /// A password or a URL that may hold one: messages never repeat its value.
    var isSecret = false
    /// Read from its `ARCHIVEGATE_*` variable only; in `server.json` (a file many may read) it is
    /// refused.
    var isEnvironmentOnly = false
    /// Turns a raw value into `Value`, or says in a few words what was expected.
    let parse: @Sendable (RawConfigurationValue) -> Result<Value, ConfigurationProblem>

    var environmentName: String { Self.environmentName(of: name) }

    func check(_ raw: RawConfigurationValue) -> ConfigurationProblem? {
        if case .failure(let problem) = parse(raw) { return problem }
        return nil
    }

    /// `http.headerTimeoutSeconds` → `ARCHIVEGATE_HTTP_HEADER_TIMEOUT_SECONDS`.
    static func environmentName(of key: String) -> String {
        var name = "ARCHIVEGATE_"
        var previousWasLower = false
        for character in key {
            if character == "." {
                name.append("_")
                previousWasLower = false
                continue
            }
            if character.isUppercase && previousWasLower { name.append("_") }
            name.append(contentsOf: character.uppercased())
            previousWasLower = character.isLowercase || character.isNumber
        }
        return name
    }
}

/// A key of any value type, as the table lists them.
protocol AnyConfigurationKey: Sendable {
    var name: String { get }
    var environmentName: String { get }
    var documentedDefault: DocumentedDefault { get }
    var isSecret: Bool { get }
    var isEnvironmentOnly: Bool { get }
    /// Nil when `raw` is acceptable for this key.
    func check(_ raw: RawConfigurationValue) -> ConfigurationProblem?
}

/// How a default is written in docs/OPERATIONS.md and config/server.json.
enum DocumentedDefault: Sendable, Equatable {
    /// This very value.
    case value(ConfigurationJSON)
    /// Whatever another key resolves to (`fetch.maxBytes` defaults to `limits.maxBodyBytes`).
    case sameAs(String)
    /// Unset unless a source sets it: docs/OPERATIONS.md says "(none)", server.json shows `null` (or, for an
    /// environment-only key, leaves it out).
    case none
}

/// A value as a source holds it: typed JSON from `server.json`, text from a variable or a flag.
enum RawConfigurationValue: Sendable {
    case json(ConfigurationJSON)
    case text(String)

    /// For messages: what the operator wrote (never used for a secret key).
    var shown: String {
        switch self {
        case .text(let text): "'\(text)'"
        case .json(.string(let text)): "\"\(text)\""
        case .json(.integer(let value)): "\(value)"
        case .json(.number(let value)): "\(value)"
        case .json(.boolean(let value)): "\(value)"
        case .json(let other): other.typeName
        }
    }
}

/// Why a raw value was refused, without the key (the loader adds key and source).
struct ConfigurationProblem: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}
