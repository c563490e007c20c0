import Foundation
import Testing
@testable import ArchiveGateCore

/// Typos and syntax errors in policy documents: codes, JSON pointers or line and column, and the
/// suggestion of the nearest name.
@Suite struct PolicyCheckTests {
    static func loadError(_ document: String) -> PolicyError? {
        do {
            _ = try Policy.load(json: Array(document.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (#"{"allow": ["fundation"]}"#, "/allow/0", "did you mean 'foundation'?"),
        (#"{"root": ["NSString"], "allow": ["plist", "uikit-value"]}"#, "/allow/1", "did you mean 'uikit-values'?"),
        (#"{"allow": "plist", "classes": {"A": {"keys": {"n": "integr"}}}}"#, "/classes/A/keys/n", "did you mean 'integer'?"),
        (#"{"allow": "plist", "classes": {"A": {"keys": {"t": {"classes": "NSArray", "elements": ["strng"]}}}}}"#,
         "/classes/A/keys/t/elements/0", "did you mean 'string'?"),
    ])
    func anUnknownGroupIsAnErrorWithTheNearestGroup(document: String, pointer: String, hint: String) throws {
        let error = try #require(Self.loadError(document))
        #expect(error.code == .unknownGroup)
        #expect(error.path == pointer)
        #expect(error.message.hasSuffix(hint), "\(error.message)")
    }

    @Test func aNameFarFromEveryGroupHasNoSuggestion() throws {
        let error = try #require(Self.loadError(#"{"allow": ["everything"]}"#))
        #expect(error.code == .unknownGroup)
        #expect(!error.message.contains("did you mean"))
    }

    @Test func aMisspeltClassIsAWarningWithTheNearestKnownClass() throws {
        let document = #"{"root": ["App.Note"], "allow": ["plist", "NSStrnig", "NSUuid", "App.Note", "App.Unseen"], "acknowledge": ["NSPredicte"], "classes": {"App.Note": {"keys": {"when": "NSDaet"}}}}"#
        _ = try Policy.load(json: Array(document.utf8))
        let warnings = PolicyLint.classNameWarnings(json: Array(document.utf8))
        #expect(warnings.map(\.code) == Array(repeating: .unknownClass, count: 5))
        #expect(warnings.map(\.path) == ["/allow/1", "/allow/2", "/allow/4", "/classes/App.Note/keys/when", "/acknowledge/0"])
        #expect(warnings[0].message.hasSuffix("did you mean 'NSString'?"))
        #expect(warnings[1].message.hasSuffix("did you mean 'NSUUID'?"))
        #expect(!warnings[2].message.contains("did you mean"), "no known class is near App.Unseen")
        #expect(warnings[3].message.hasSuffix("did you mean 'NSDate'?"))
        #expect(warnings[4].message.hasSuffix("did you mean 'NSPredicate'?"))
        // A class a sample uses is known.
        let withSamples = PolicyLint.classNameWarnings(json: Array(document.utf8), sampleClasses: ["App.Unseen"])
        #expect(!withSamples.map(\.path).contains("/allow/4"))
    }

    @Test func theShippedPoliciesHaveNoWarning() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        for name in ["demo", "example"] {
            let bytes = Array(try Data(contentsOf: root.appendingPathComponent("config/policies/\(name).json")))
            #expect(PolicyLint.classNameWarnings(json: bytes).isEmpty, "\(name)")
        }
    }

    @Test(arguments: [
        ("{\n  \"allow\": [\"plist\",]\n}", 2, 21, "expected a value, found ']' (a trailing comma?)"),
        ("{\"allow\": [\"plist\"] \"root\": []}", 1, 21, "expected ',' or '}', found '\"'"),
        ("{\n\t\"name\": \"x\n\"}", 2, 12, "a control character inside a string (a missing closing quote?)"),
        ("{\"é\": tru}", 1, 7, "expected a value, found 't'"),
        ("{\"allow\": [\"plist\"]", 1, 20, "the document ends early; expected ',' or '}'"),
        ("", 1, 1, "the document is empty"),
        ("{} {}", 1, 4, "unexpected '{' after the end of the document"),
    ])
    func aSyntaxErrorHasItsLineAndColumn(document: String, line: Int, column: Int, message: String) throws {
        let error = try #require(Self.loadError(document))
        #expect(error.code == .invalidJSON)
        #expect(error.syntaxError?.line == line, "\(error)")
        #expect(error.syntaxError?.column == column, "\(error)")
        #expect(error.message == "not valid JSON: " + message)
        #expect(error.description == "policy.invalid_json at line \(line), column \(column): not valid JSON: \(message)")
    }

    @Test func wellFormedDocumentsHaveNoSyntaxError() {
        for document in [#"{"a": [1, -2.5e+3, 0, true, false, null, "\u00e9\n", {}, []], "b": {"c": "d"}}"#, "\u{FEFF}{}", " [ ] "] {
            #expect(JSONSyntaxError.first(in: Array(document.utf8)) == nil, "\(document)")
        }
        for document in ["[01]", "[1.]", "[-]", #"["\x"]"#, #"["\u12"]"#, "[1 2]", "{\"a\" 1}", "{,}"] {
            #expect(JSONSyntaxError.first(in: Array(document.utf8)) != nil, "\(document)")
        }
    }

    /// Semantic errors keep their JSON pointer, and duplicates their own code.
    @Test func semanticErrorsKeepTheirPointer() throws {
        let unknown = try #require(Self.loadError(#"{"allow": ["plist"], "classes": {"A": {"colour": 1}}}"#))
        #expect(unknown.code == .unknownField)
        #expect(unknown.path == "/classes/A/colour")
        #expect(unknown.syntaxError == nil)
        let duplicate = try #require(Self.loadError(#"{"allow": ["plist"], "allow": ["foundation"]}"#))
        #expect(duplicate.code == .duplicateKey)
        #expect(duplicate.path == "/allow")
    }
}
