/// A configuration value that cannot be used; names the key so the operator can find it.
public struct ConfigurationError: Error, CustomStringConvertible {
    public var key: String
    public var message: String

    init(key: String, _ message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { "configuration key '\(key)': \(message)" }
}
