import Foundation

extension JSONEncoder {
    /// The server's one JSON encoder setting: sorted keys (Linux's key order is not stable, and
    /// reports, problems and results must be deterministic) and `/` unescaped. A new encoder per
    /// call: `JSONEncoder` is a class and not `Sendable`.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
