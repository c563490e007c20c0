import ArchiveGateCore
import Foundation

/// The `$top` members beside `root`, read the way Foundation reads them: a UID with
/// `decodeTopLevelObject(of:forKey:)`, an inline bool, integer, real or data with
/// `decodeBool`/`decodeInt64`/`decodeDouble` (data: its bytes) — what the archiver's matching `encode…`
/// call wrote. No call decodes an inline string (or anything else): that member is written as
/// `{"\u{1}undecodable": kind}`, which equals no JSON, so only a refusal agrees with it.
extension FoundationWorker {
    /// The whole `$top` as `{"\u{1}top": {name: value, …}}` with `root` already decoded, or nil when
    /// `$top` holds only `root` (the answer is then the root alone, as it always was).
    static func topMembers(_ request: [UInt8], root: Any) -> [UInt8]? {
        guard let model = ArchiveModel(bytes: request),
              case .dictionary(let entries)? = model.header.first(where: { $0.key == "$top" })?.value,
              entries.contains(where: { $0.key != "root" }),
              let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: Data(request)) else { return nil }
        unarchiver.requiresSecureCoding = true
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        var writer = FoundationJSON()
        writer.raw("{\"\\u0001top\":{")
        for (position, entry) in entries.enumerated() {
            if position > 0 { writer.raw(",") }
            writer.key(FoundationJSON.escapedKey(entry.key))
            if entry.key == "root" {
                writer.write(root)
                continue
            }
            // Foundation reads here: a trap is its own, not the writer's (`run`).
            decodedFlag.pointee = 0
            defer { decodedFlag.pointee = 1 }
            switch entry.value {
            case .uid:
                let object = unarchiver.decodeObject(of: allowedClasses, forKey: entry.key)
                if unarchiver.error != nil {
                    writer.raw("{\"\\u0001undecodable\":\"reference\"}")
                } else if let object {
                    writer.write(object)
                } else {
                    writer.raw("null")
                }
            // A key with a single leading `$` is the archiver's: keyed decoding escapes it to `$$…`.
            case _ where entry.key.hasPrefix("$") && !entry.key.hasPrefix("$$"):
                writer.raw("{\"\\u0001undecodable\":\"archiver key\"}")
            // As 1/0: the comparison takes a bool for its integer (corelibs' NSNumber cannot say bool).
            case .bool: writer.raw(unarchiver.decodeBool(forKey: entry.key) ? "1" : "0")
            case .integer: writer.raw(String(unarchiver.decodeInt64(forKey: entry.key)))
            case .real: writer.number(unarchiver.decodeDouble(forKey: entry.key))
            case .data(let bytes):
                // corelibs has no decodeBytes(forKey:); Apple's returns the inline bytes as archived.
                writer.text(Data(bytes).base64EncodedString())
            default:
                writer.raw("{\"\\u0001undecodable\":\"inline value\"}")
            }
        }
        writer.raw("}}")
        return writer.bytes
    }
}
