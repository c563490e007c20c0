import ArchiveGateKeys
import ArgumentParser

/// `archivegate hash-key [KEY]`: prints the SHA-256 hex of an API key for a tenant file's `keys`.
/// Reading the key from standard input keeps it out of shell history and `ps`.
struct HashKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hash-key",
        abstract: "Print the SHA-256 hex hash of an API key, as tenant files store it."
    )

    @Argument(help: "The key. Omit it to read one line from standard input.")
    var key: String?

    func run() throws {
        guard let key = key ?? readLine(strippingNewline: true), !key.isEmpty else {
            throw ValidationError("no key given (pass it as an argument or on standard input)")
        }
        Terminal.writeStdout(Array((APIKeyHash(key: key).hex + "\n").utf8))
    }
}
