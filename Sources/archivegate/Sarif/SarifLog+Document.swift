import ArchiveGateCore
import Foundation

extension SarifLog {
    static let schema = "https://json.schemastore.org/sarif-2.1.0.json"

    /// The whole log as one JSON document (and a newline), written by the core's one document writer
    /// as every report is: one run of `archivegate`, its rules (one per code met, sorted), one
    /// invocation carrying the exit status and the run-level notices, then the results.
    /// `executionSuccessful` is false when the run ended without a verdict on every input (nothing
    /// scanned, an unreadable input: exit 4 or above).
    func document(exitCode: Int32) -> [UInt8] {
        let results = orderedResults
        var rules: [String: SarifRule] = [:]
        for result in results where rules[result.rule.id] == nil { rules[result.rule.id] = result.rule }
        let ruleIDs = rules.keys.sorted()
        let ruleIndex = Dictionary(uniqueKeysWithValues: ruleIDs.enumerated().map { ($1, $0) })

        var json = JSONDocumentWriter(capacity: 2048 + results.count * 320)
        json.raw("{\"$schema\":")
        json.string(Self.schema)
        json.raw(",\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"archivegate\",\"version\":")
        json.string(ArchiveGateVersion.string)
        json.raw(",\"informationUri\":")
        json.string(SarifRule.documentation)
        json.raw(",\"rules\":[")
        for (index, id) in ruleIDs.enumerated() {
            if index > 0 { json.raw(",") }
            Self.write(rules[id]!, to: &json)
        }
        json.raw("]}},\"invocations\":[{\"executionSuccessful\":")
        json.bool(exitCode < CLIExit.nothingScanned.rawValue)
        json.raw(",\"exitCode\":")
        json.integer(Int(exitCode))
        json.raw(",\"toolExecutionNotifications\":[")
        for (index, notification) in allNotifications.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{\"descriptor\":{\"id\":")
            json.string(notification.id)
            json.raw("},\"level\":")
            json.string(notification.level.rawValue)
            json.raw(",\"message\":{\"text\":")
            json.string(notification.message)
            json.raw("}}")
        }
        json.raw("]}],\"results\":[")
        for (index, result) in results.enumerated() {
            if index > 0 { json.raw(",") }
            Self.write(result, ruleIndex: ruleIndex[result.rule.id]!, to: &json)
        }
        json.raw("]}]}\n")
        return json.bytes
    }

    private static func write(_ rule: SarifRule, to json: inout JSONDocumentWriter) {
        json.raw("{\"id\":")
        json.string(rule.id)
        json.raw(",\"shortDescription\":{\"text\":")
        json.string(rule.shortDescription)
        json.raw("}")
        if let full = rule.fullDescription {
            json.raw(",\"fullDescription\":{\"text\":")
            json.string(full)
            json.raw("}")
        }
        json.raw(",\"helpUri\":")
        json.string(rule.helpURI)
        json.raw("}")
    }

    private static func write(_ result: Result, ruleIndex: Int, to json: inout JSONDocumentWriter) {
        json.raw("{\"ruleId\":")
        json.string(result.rule.id)
        json.raw(",\"ruleIndex\":")
        json.integer(ruleIndex)
        json.raw(",\"level\":")
        json.string(result.level.rawValue)
        json.raw(",\"message\":{\"text\":")
        json.string(result.message)
        json.raw("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":")
        json.string(uri(result.origin.path))
        json.raw("}")
        if let byteOffset = result.byteOffset {
            json.raw(",\"region\":{\"byteOffset\":")
            json.integer(byteOffset)
            json.raw("}")
        } else if let line = result.line {
            json.raw(",\"region\":{\"startLine\":")
            json.integer(max(1, line))
            json.raw("}")
        }
        json.raw("}")
        // The database cell (an element of the table), then the JSON pointer (a value in the JSON).
        var logical: [(name: String, kind: StaticString)] = []
        if case .cell(_, let table, let column, let rowid) = result.origin {
            logical.append((DatabaseScanner.label(table: table, column: column, rowid: rowid), "element"))
        }
        if let pointer = result.pointer { logical.append((pointer, "value")) }
        for (index, location) in logical.enumerated() {
            json.raw(index == 0 ? ",\"logicalLocations\":[" : ",")
            json.raw("{\"fullyQualifiedName\":")
            json.string(location.name)
            json.raw(",\"kind\":\"")
            json.raw(location.kind)
            json.raw("\"}")
            if index == logical.count - 1 { json.raw("]") }
        }
        json.raw("}]")
        if result.acknowledged {
            json.raw(",\"suppressions\":[{\"kind\":\"external\",\"justification\":\"acknowledged by the policy\"}]")
        }
        if case .cell(_, let table, let column, let rowid) = result.origin {
            json.raw(",\"properties\":{\"table\":")
            json.string(table)
            json.raw(",\"column\":")
            json.string(column)
            json.raw(",\"rowid\":")
            if let rowid { json.integer(Int(rowid)) } else { json.null() }
            json.raw("}")
        }
        json.raw("}")
    }

    /// A path as a URI reference: relative paths stay relative (to where the command ran, as code
    /// scanning expects them), absolute ones become `file://` URIs; characters a URI path cannot
    /// hold are percent-encoded.
    static func uri(_ path: String) -> String {
        let encoded = path.addingPercentEncoding(withAllowedCharacters: uriPathAllowed) ?? path
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }

    private static let uriPathAllowed: CharacterSet = {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~/!$&'()*+,;=@")  // no ":": a relative path must not read as a scheme
        return allowed
    }()
}
