/// A configuration value that cannot be used; names the key (and where it was written) so the
/// operator can find it. The server does not start with one.
public struct ConfigurationError: Error, CustomStringConvertible {
    /// The key (`limits.maxBodyBytes`) or, for an unknown variable, the variable's name.
    public var key: String
    /// Where the value came from: `…/server.json`, `ARCHIVEGATE_LIMITS_MAX_BODY_BYTES`, `flag`; nil
    /// for a rule between keys.
    public var origin: String?
    public var message: String

    init(key: String, origin: String? = nil, _ message: String) {
        self.key = key
        self.origin = origin
        self.message = message
    }

    public var description: String {
        "configuration key '\(key)'\(origin.map { " (\($0))" } ?? ""): \(message)"
    }
}
