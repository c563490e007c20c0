import Logging
import Synchronization

/// The log lines a test server wrote, for tests that assert what the log says.
final class CapturedLog: Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let stored = Mutex<[Line]>([])

    var lines: [Line] { stored.withLock { $0 } }

    /// Writes into a `CapturedLog`.
    struct Handler: LogHandler {
        let log: CapturedLog
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
                 file: String, function: String, line: UInt) {
            let merged = self.metadata.merging(metadata ?? [:]) { $1 }.mapValues { "\($0)" }
            log.stored.withLock { $0.append(Line(level: level, message: message.description, metadata: merged)) }
        }
    }
}
