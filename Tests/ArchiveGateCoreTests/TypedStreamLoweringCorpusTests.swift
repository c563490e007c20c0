import Foundation
import Testing
@testable import ArchiveGateCore

/// Every file of `../shared/typedstream-corpus` goes through the whole pipeline (reader, lowering,
/// policy, renderers) in inspection mode; where a source project's tests assert a value (a
/// message's text, its runs, a root string, number, date or URL), the plain JSON carries exactly
/// that value; typed mode gives the stream's own typed JSON. Files the sources and pytypedstream
/// find malformed fail with a typedstream error.
@Suite(.enabled(if: TypedStreamCorpus.isPresent, Comment(rawValue: TypedStreamCorpus.absent)))
struct TypedStreamLoweringCorpusTests {
    /// A corpus file and its sources' asserted values (each value as JSON text).
    struct Case: Sendable, CustomStringConvertible {
        var file: String
        var mustFail: Bool
        var expected: [(kind: String, json: String)]
        var description: String { file }
    }

    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: TypedStreamCorpus.root.appendingPathComponent("manifest.json")),
              let records = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        let failing = Set(TypedStreamCorpus.entries.filter(\.mustFail).map(\.file))
        return records.compactMap { record in
            guard let file = record["file"] as? String else { return nil }
            var expected: [(String, String)] = []
            for source in record["sources"] as? [[String: Any]] ?? [] {
                for item in source["expected"] as? [[String: Any]] ?? [] {
                    guard let kind = item["kind"] as? String, let value = item["value"],
                          let json = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]) else { continue }
                    expected.append((kind, String(decoding: json, as: UTF8.self)))
                }
            }
            return Case(file: file, mustFail: failing.contains(file), expected: expected)
        }
    }()

    @Test func everyFileIsACase() {
        #expect(Self.cases.count == 137)
        #expect(Self.cases.filter(\.mustFail).count == 4)
    }

    @Test(arguments: cases)
    func convertsWithTheValuesItsSourcesAssert(_ corpusCase: Case) throws {
        let bytes = try TypedStreamCorpus.bytes(corpusCase.file)
        let inspector = ArchiveInspector(policy: .inspection)
        if corpusCase.mustFail {
            do {
                _ = try inspector.convert(bytes, mode: .plain)
                Issue.record("\(corpusCase.file) converted; its sources find it malformed")
            } catch {
                // Input without the typedstream header (the empty file) is no typedstream at all.
                let expected = TypedStream.hasHeader(bytes) ? "typedstream." : "plist.not_a_property_list"
                #expect(error.code.rawValue.hasPrefix(expected), "\(error)")
            }
            return
        }
        let inspection = try inspector.convert(bytes, mode: .plain)
        let json = try #require(inspection.json, "\(corpusCase.file): \(inspection.report.violations.map(\.message))")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json), options: .fragmentsAllowed) as? [String: Any])
        let plain = PlainValues(document)
        for (kind, expectedJSON) in corpusCase.expected {
            let expected = try JSONSerialization.jsonObject(with: Data(expectedJSON.utf8), options: .fragmentsAllowed)
            plain.check(kind: kind, expected: expected, file: corpusCase.file)
        }
        // Typed mode is the stream itself, nothing redacted.
        let typed = try inspector.convert(bytes, mode: .typed)
        let graph = try TypedStreamCorpus.graph(corpusCase.file)
        #expect(typed.json == (try TypedStreamJSON.render(graph, redacted: [], limits: Policy.inspection.limits)))
    }
}

/// What the plain JSON of a corpus file shows, and the checks of each asserted kind of value.
struct PlainValues {
    let document: [String: Any]
    var root: Any? { document["root"] }

    init(_ document: [String: Any]) { self.document = document }

    /// The root's text: a string itself, or an attributed string's runs joined.
    var text: String? {
        if let string = root as? String { return string }
        guard let runs = root as? [[String: Any]] else { return nil }
        let texts = runs.compactMap { $0["text"] as? String }
        return texts.count == runs.count ? texts.joined() : nil
    }

    /// Every string in the document (keys and values), an explicit stack.
    var strings: Set<String> {
        var result = Set<String>()
        var stack: [Any] = [document]
        while let value = stack.popLast() {
            switch value {
            case let string as String: result.insert(string)
            case let array as [Any]: stack.append(contentsOf: array)
            case let dictionary as [String: Any]:
                result.formUnion(dictionary.keys)
                stack.append(contentsOf: dictionary.values)
            default: break
            }
        }
        return result
    }

    /// Every value in the document as canonical JSON text, an explicit stack.
    var values: [String] {
        var result = [String]()
        var stack: [Any] = [document]
        while let value = stack.popLast() {
            result.append(Self.canonical(value))
            if let array = value as? [Any] { stack.append(contentsOf: array) }
            if let dictionary = value as? [String: Any] { stack.append(contentsOf: dictionary.values) }
        }
        return result
    }

    static func canonical(_ value: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]) else { return "?" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The run boundaries as UTF-8 byte offsets (crabstep and imessage-exporter count bytes), with
    /// each run's attribute values as text.
    var runs: [(start: Int, end: Int, values: Set<String>)] {
        guard let runs = root as? [[String: Any]] else { return [] }
        var start = 0
        return runs.map { run in
            let length = (run["text"] as? String)?.utf8.count ?? 0
            defer { start += length }
            return (start, start + length, PlainValues(["": run["attributes"] ?? NSNull()]).strings)
        }
    }

    /// The plain JSON's form of an NSDate (ISO 8601, milliseconds, UTC).
    static func date(sinceReferenceDate seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds))
    }

    static func hexToBase64(_ hex: String) -> String {
        var bytes = [UInt8]()
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            bytes.append(UInt8(hex[index ..< next], radix: 16) ?? 0)
            index = next
        }
        return Data(bytes).base64EncodedString()
    }

    /// Checks one asserted value; kinds that are not about decoded values (generator input,
    /// positional tables, other columns' export text) are not checked here.
    func check(kind: String, expected: Any, file: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let comment = Comment(rawValue: "\(file): \(kind)")
        switch kind {
        case "body text (parse_body_typedstream)", "legacy text parser: plain text",
             "text of the last message of contact \"Thomas Riverstone\" (this row; its text column is null, so the text comes from this blob)",
             "TXT export of this row (message.rowid = 548216, line 1941): the original text printed after \"Translated from:\"",
             "root as_string", "unarchived root: NSString value", "unarchived NSString value",
             "root as_url", "unarchived root: NSURL, relative_to None, value", "NSURL value, RelativeTo nil":
            #expect(text == expected as? String, comment, sourceLocation: sourceLocation)
        case "legacy text parser: text length in UTF-8 bytes":
            #expect(text?.utf8.count == expected as? Int, comment, sourceLocation: sourceLocation)
        case "exported line (date/handle prefix from other columns; message text after \"testhandle1: \")":
            let line = expected as? String ?? ""
            let message = line.components(separatedBy: "testhandle1: ").dropFirst().joined(separator: "testhandle1: ")
            // bagoup prints an audio message's transcription attribute after its text.
            if let brace = message.range(of: "{\n    IMAudioTranscription = \""), message.hasSuffix("\"\n}\n") {
                let transcription = String(message[brace.upperBound...].dropLast(4))
                #expect(text == String(message[..<brace.lowerBound]) && strings.contains(transcription), comment, sourceLocation: sourceLocation)
            } else {
                #expect(text.map { $0 + "\n" } == message, comment, sourceLocation: sourceLocation)
            }
        case "TXT export of this row (message.rowid = 123445, line 1898) shows the link":
            #expect(strings.contains(expected as? String ?? ""), comment, sourceLocation: sourceLocation)
        case "attribute runs (parse_body_typedstream components)":
            checkRuns(expected as? [String] ?? [], comment, sourceLocation)
        case "strings in the asserted object table (in order)", "strings (NSString, NSMutableString)",
             "attributed string backing text", "strings read from the root include":
            // The text of an attributed string is there split into its runs.
            let missing = Set(expected as? [String] ?? []).subtracting(strings.union([text].compactMap { $0 }))
            #expect(missing.isEmpty, "\(comment): missing \(missing)", sourceLocation: sourceLocation)
        case "Typedstream::Parser.parse result", "root dictionary (len 2)", "as_f64", "root as_i64",
             "as_i64 (as_u64 is None, line 145)":
            #expect(root.map(Self.canonical) == Self.canonical(expected), comment, sourceLocation: sourceLocation)
        case "as_bool / as_i64":
            #expect(root as? Bool == true, comment, sourceLocation: sourceLocation)
        case "root as_date (seconds since 2001-01-01)":
            #expect(root as? String == Self.date(sinceReferenceDate: expected as? Double ?? .nan), comment, sourceLocation: sourceLocation)
        case "dates (since 2001) / as unix time":
            let seconds = (expected as? [Double])?.first ?? .nan
            #expect(strings.contains(Self.date(sinceReferenceDate: seconds)), comment, sourceLocation: sourceLocation)
        case "unarchived root: NSURL \"index.html\" relative to NSURL \"https://example.com/\" (whose relative_to is None)",
             "base NSURL value / URL value":
            let parts = expected as? [String] ?? []
            let resolved = parts.count == 2 ? URL(string: parts[1], relativeTo: URL(string: parts[0]))?.absoluteString : nil
            #expect(resolved != nil && text == resolved, comment, sourceLocation: sourceLocation)
        case "URL values (absolute, then the relative one's relative part)":
            let parts = expected as? [String] ?? []
            #expect(parts.count == 2 && strings.contains(parts[0]) && strings.contains { $0.hasSuffix("/" + parts[1]) },
                    comment, sourceLocation: sourceLocation)
        case "root as_array: len 3; string elements":
            let array = root as? [Any] ?? []
            #expect(array.count == 3 && array.compactMap { $0 as? String } == expected as? [String], comment, sourceLocation: sourceLocation)
        case "two data values":
            let missing = (expected as? [String] ?? []).map(Self.hexToBase64).filter { !strings.contains($0) }
            #expect(missing.isEmpty, "\(comment): missing \(missing)", sourceLocation: sourceLocation)
        case "values include NSNumber 7 and data 0102":
            #expect(values.contains("7") && strings.contains(Self.hexToBase64("0102")), comment, sourceLocation: sourceLocation)
        case "number of NSNull elements":
            #expect(values.filter { $0 == "null" }.count == expected as? Int, comment, sourceLocation: sourceLocation)
        case "nested integer array", "integer arrays among the elements", "string sets among the elements", "dictionary entries (both NSDictionary and NSMutableDictionary)":
            let all = Set(values)
            for element in expected as? [Any] ?? [] {
                var wanted = Self.canonical(element)
                if kind.hasPrefix("dictionary"), let pair = element as? [Any], pair.count == 2, let key = pair[0] as? String {
                    wanted = Self.canonical([key: pair[1]])
                }
                #expect(all.contains(wanted), "\(comment): \(wanted) not found", sourceLocation: sourceLocation)
            }
        default:
            break
        }
    }

    /// imessage-exporter's components `kind(start, end, …)`: both ends are run boundaries (UTF-8
    /// offsets; some tests assert the first components only); the attachment GUIDs, links and mentions it names
    /// are attribute values of a run in that range.
    private func checkRuns(_ components: [String], _ comment: Comment, _ sourceLocation: SourceLocation) {
        let runs = runs
        let boundaries = Set(runs.map(\.start) + runs.map(\.end))
        for component in components where component.contains("(") {
            let numbers = component.drop { $0 != "(" }.dropFirst().split(separator: ",").prefix(2)
                .compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count == 2 else { continue }
            #expect(boundaries.contains(numbers[0]) && boundaries.contains(numbers[1]),
                    "\(comment): \(component) does not fall on runs \(runs.map { ($0.start, $0.end) })", sourceLocation: sourceLocation)
            let inRange = runs.filter { $0.start >= numbers[0] && $0.end <= numbers[1] }.reduce(into: Set<String>()) { $0.formUnion($1.values) }
            for named in Self.namedValues(component) {
                #expect(inRange.contains(named), "\(comment): \(named) not an attribute of \(component)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The GUID, link or mention a component names.
    static func namedValues(_ component: String) -> [String] {
        var result = [String]()
        if let range = component.range(of: "guid=") {
            result.append(String(component[range.upperBound...].prefix { $0 != "," && $0 != ")" }))
        }
        for marker in ["Link(", "Mention("] {
            guard let range = component.range(of: marker) else { continue }
            let rest = component[range.upperBound...].drop { $0 == " " || $0 == "\"" }
            result.append(String(rest.prefix { $0 != "\"" }))
        }
        return result
    }
}
