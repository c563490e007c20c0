/// A tenant file that cannot be used; the server refuses to start rather than run half-configured.
public struct TenantFileError: Error, CustomStringConvertible {
    public var path: String
    public var message: String

    init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
