import Foundation
import Testing
@testable import ArchiveGateCore

/// Policies as NSSecureCoding made declarative (DESIGN §4): exact class names, `$classes` never
/// trusted, every reference site checked, inline kinds not interchangeable, `redact` output, and
/// a deterministic report.
@Suite struct PolicyTests {
    static let post = "ArchiveGateCoreTests.SamplePost"
    static let imagePost = "ArchiveGateCoreTests.SampleImagePost"
    static let author = "ArchiveGateCoreTests.SampleAuthor"
    static let pair = "ArchiveGateCoreTests.SamplePair"
    static let box = "ArchiveGateCoreTests.SampleBox"

    /// A policy for posts; `extra` is spliced into the top-level object.
    static func postPolicy(postSchema: String? = nil, extra: String = "") -> Policy {
        let schema = postSchema ?? #"""
            {"keys": {"title": "NSString", "likes": "integer", "subtitle": "NSString",
                      "tags": {"classes": ["NSArray"], "elements": ["NSString"]}, "author": "\#(author)"},
             "required": ["title"]}
            """#
        return Inspect.policy(#"""
            {"name": "posts", "root": ["\#(post)"], "allow": ["plist"]\#(extra),
             "classes": {"\#(post)": \#(schema), "\#(author)": {"keys": {"name": "NSString"}}}}
            """#)
    }

    /// A policy for one class with `keys`, redacting or rejecting.
    static func keysPolicy(_ className: String, _ keys: String, redact: Bool = false) -> Policy {
        Inspect.policy(#"""
            {"root": ["\#(className)"], "allow": ["plist"], "onViolation": "\#(redact ? "redact" : "reject")",
             "classes": {"\#(className)": {"keys": \#(keys)}}}
            """#)
    }

    /// Violations as `code path class key` lines, `-` for nil.
    static func lines(_ report: ValidationReport) -> [String] {
        report.violations.map { "\($0.code) \($0.path) \($0.className ?? "-") \($0.key ?? "-")" }
    }

    static func archive(_ object: Any, _ format: FixtureFormat = .xml) throws -> [UInt8] {
        try FoundationFixture.archive(object, as: format)
    }

    // MARK: - Loading

    @Test(arguments: [
        ("not json", "policy.invalid_json", ""),
        ("[1]", "policy.invalid_json", ""),
        (#"{"alow": ["plist"]}"#, "policy.unknown_field", "/alow"),
        (#"{"name": 5}"#, "policy.invalid_value", "/name"),
        (#"{"root": 7}"#, "policy.invalid_value", "/root"),
        (#"{"allow": ["NSString", ""]}"#, "policy.invalid_value", "/allow/1"),
        (#"{"onViolation": "ignore"}"#, "policy.invalid_value", "/onViolation"),
        (#"{"classes": []}"#, "policy.invalid_value", "/classes"),
        (#"{"classes": {"a/b": 5}}"#, "policy.invalid_value", "/classes/a~1b"),
        (#"{"classes": {"A": {"keyz": {}}}}"#, "policy.unknown_field", "/classes/A/keyz"),
        (#"{"classes": {"A": {"keys": {"k": 5}}}}"#, "policy.invalid_value", "/classes/A/keys/k"),
        (#"{"classes": {"A": {"keys": {"k": {"elements": ["NSString"]}}}}}"#, "policy.invalid_value", "/classes/A/keys/k/classes"),
        (#"{"classes": {"A": {"keys": {"k": {"classes": "X", "elemnts": []}}}}}"#, "policy.unknown_field", "/classes/A/keys/k/elemnts"),
        (#"{"classes": {"A": {"unknownKeys": "ignore"}}}"#, "policy.invalid_value", "/classes/A/unknownKeys"),
        (#"{"classes": {"A": {"required": [1]}}}"#, "policy.invalid_value", "/classes/A/required/0"),
        (#"{"classes": {"A": {"extends": "B"}}}"#, "policy.unknown_superclass", "/classes/A/extends"),
        (#"{"classes": {"A": {"extends": "A"}}}"#, "policy.inheritance_cycle", "/classes/A/extends"),
        (#"{"limits": {"maxDepth": 0}}"#, "policy.invalid_value", "/limits/maxDepth"),
        (#"{"limits": {"maxDepth": -3}}"#, "policy.invalid_value", "/limits/maxDepth"),
        (#"{"limits": {"maxDepth": 1.5}}"#, "policy.invalid_value", "/limits/maxDepth"),
        (#"{"limits": {"maxDepth": true}}"#, "policy.invalid_value", "/limits/maxDepth"),
        (#"{"limits": {"maxDeep": 5}}"#, "policy.unknown_field", "/limits/maxDeep"),
    ])
    func unusablePolicyFilesAreErrorsWithCodeAndPointer(json: String, code: String, path: String) {
        do {
            _ = try Policy.load(json: Array(json.utf8), name: "t")
            Issue.record("loaded: \(json)")
        } catch {
            #expect(error.code.rawValue == code)
            #expect(error.path == path)
        }
    }

    @Test func inheritanceCyclesAreErrors() {
        #expect(throws: PolicyError(.inheritanceCycle, path: "", "")) {
            try Policy.load(json: Array(#"{"classes": {"A": {"extends": "B"}, "B": {"extends": "A"}}}"#.utf8))
        }
    }

    @Test func aPolicyCompilesGroupsKindsLimitsAndInheritance() throws {
        let policy = try Policy.load(json: Array(#"""
            {"allow": ["plist", "X", "integer"], "root": ["Base"], "limits": {"maxDepth": 7, "maxOutputBytes": 1000},
             "classes": {"Base": {"keys": {"a": "NSString"}, "required": ["a"]},
                         "Sub": {"extends": "Base", "keys": {"b": ["real", "NSNumber"]}, "unknownKeys": "allow"}}}
            """#.utf8), name: "fallback")
        #expect(policy.name == "fallback")
        #expect(policy.allowed.names == Policy.plistGroup.union(["X"]))
        #expect(policy.allowed.inlineKinds == [.integer])
        #expect(policy.root?.names == ["Base", "Sub"])
        #expect(policy.limits.maxDepth == 7 && policy.limits.maxOutputBytes == 1000)
        #expect(policy.limits.maxObjects == DecodeLimits().maxObjects)
        #expect(policy.onViolation == .reject)
        let sub = try #require(policy.classes["Sub"])
        #expect(Set(sub.keys.keys) == ["a", "b"])
        #expect(sub.keys["b"]?.accepted == ClassSet(names: ["NSNumber"], inlineKinds: [.real]))
        #expect(sub.required == ["a"])
        #expect(sub.unknownKeys == .allow)
        #expect(policy.classes["Base"]?.unknownKeys == .reject)
    }

    // MARK: - Classes are names

    @Test func aWellFormedPostPasses() throws {
        let post = SamplePost(title: "T", likes: 2, subtitle: "s", tags: ["a"], author: SampleAuthor(name: "A"))
        for format in FixtureFormat.allCases {
            let report = try Inspect.report(Self.archive(post, format), policy: Self.postPolicy())
            #expect(report.valid)
            #expect(report.violations.isEmpty)
            #expect(report.policy == "posts")
            #expect(report.classes.map(\.name) == ["ArchiveGateCoreTests.SampleAuthor", "ArchiveGateCoreTests.SamplePost", "NSArray", "NSString"])
            #expect(report.classes.allSatisfy { $0.allowed })
        }
    }

    @Test func spoofedClassesGrantNothing() throws {
        let bytes = HandBuilt.spoofed("Evil", claiming: ["Evil", "NSString", "NSObject"], fields: ["NS.string": "x"])
        let report = try Inspect.report(bytes, policy: .foundation)
        #expect(!report.valid)
        #expect(Self.lines(report) == ["policy.class_not_allowed /root Evil -"])
        #expect(report.violations.first?.uid == 2)
        #expect(report.classes.count == 1)
        #expect(report.classes.first.map { ($0.name, $0.count, $0.allowed) } ?? ("", 0, true) == ("Evil", 1, false))
        #expect(report.classes.first?.claimedClasses == ["Evil", "NSString", "NSObject"])
        #expect(try ArchiveInspector(policy: .foundation).convert(bytes, mode: .plain).json == nil)
    }

    @Test func aClaimedSuperclassIsNotADeclaredOne() throws {
        let bytes = HandBuilt.spoofed("Evil", claiming: ["Evil", Self.post, "NSObject"], fields: ["title": "x"])
        let report = try Inspect.report(bytes, policy: Self.postPolicy())
        #expect(Self.lines(report) == ["policy.class_mismatch /root Evil -"])
        #expect(report.violations.first?.message.contains("$classes is never trusted") == true)
    }

    @Test func aRealSubclassIsSmugglingUntilThePolicyDeclaresIt() throws {
        let post = SampleImagePost(title: "P", likes: 1, image: Data([1]), width: 2)
        for format in FixtureFormat.allCases {
            let bytes = try Self.archive(post, format)
            let undeclared = try Inspect.report(bytes, policy: Self.postPolicy())
            #expect(Self.lines(undeclared) == ["policy.class_mismatch /root \(Self.imagePost) -"], "\(format)")
            #expect(undeclared.violations.first?.message.contains("declare \"extends\"") == true)

            let withSubclass = Inspect.policy(#"""
                {"root": ["\#(Self.post)"], "allow": ["plist"], "classes": {
                 "\#(Self.post)": {"keys": {"title": "NSString", "likes": "integer", "tags": "NSArray", "author": "\#(Self.author)"}},
                 "\#(Self.imagePost)": {"extends": "\#(Self.post)", "keys": {"image": "NSData", "width": "real"}}}}
                """#)
            #expect(Self.lines(try Inspect.report(bytes, policy: withSubclass)) == [], "\(format)")

            // Declared without its own keys, the subclass inherits only the parent's.
            let bare = Inspect.policy(#"""
                {"root": ["\#(Self.post)"], "allow": ["plist"], "classes": {
                 "\#(Self.post)": {"keys": {"title": "NSString", "likes": "integer", "tags": "NSArray", "author": "\#(Self.author)"}},
                 "\#(Self.imagePost)": {"extends": "\#(Self.post)"}}}
                """#)
            // (Sorted: binary archives order keys by Foundation's hash seed.)
            #expect(Self.lines(try Inspect.report(bytes, policy: bare)).sorted()
                    == ["policy.unknown_key /root/image \(Self.imagePost) image", "policy.unknown_key /root/width \(Self.imagePost) width"],
                    "\(format)")
        }
    }

    // MARK: - Every site is checked

    @Test func anObjectSharedByTwoKeysIsCheckedAtBoth() throws {
        let shared = "text" as NSString
        let bytes = try Self.archive(SamplePair(first: shared, second: shared))
        // Foundation writes the string once; both keys refer to it.
        #expect(try Inspect.report(bytes).objectCount == 4)
        let firstStrict = Self.keysPolicy(Self.pair, #"{"first": "NSNumber", "second": "NSString"}"#, redact: true)
        #expect(Self.lines(try Inspect.report(bytes, policy: firstStrict)) == ["policy.class_mismatch /root/first NSString first"])
        #expect(try Inspect.json(bytes, policy: firstStrict) == #"{"root":{"$class":"\#(Self.pair)","first":null,"second":"text"}}"#)
        let secondStrict = Self.keysPolicy(Self.pair, #"{"first": "NSString", "second": "NSNumber"}"#, redact: true)
        #expect(Self.lines(try Inspect.report(bytes, policy: secondStrict)) == ["policy.class_mismatch /root/second NSString second"])
        #expect(try Inspect.json(bytes, policy: secondStrict) == #"{"root":{"$class":"\#(Self.pair)","first":"text","second":null}}"#)
    }

    @Test func aSharedCustomObjectIsCheckedAtEverySite() throws {
        let ann = SampleAuthor(name: "Ann")
        let bytes = try Self.archive(SamplePair(first: ann, second: ann))
        let policy = Inspect.policy(#"""
            {"root": ["\#(Self.pair)"], "allow": ["plist"], "onViolation": "redact", "classes": {
             "\#(Self.pair)": {"keys": {"first": "\#(Self.author)", "second": "\#(Self.post)"}},
             "\#(Self.author)": {"keys": {"name": "NSString"}}}}
            """#)
        #expect(Self.lines(try Inspect.report(bytes, policy: policy)) == ["policy.class_mismatch /root/second \(Self.author) second"])
        #expect(try Inspect.json(bytes, policy: policy)
                == #"{"root":{"$class":"\#(Self.pair)","first":{"$class":"\#(Self.author)","name":"Ann"},"second":null}}"#)
    }

    /// What a box holds by reference: NSString, NSNumber or NSData.
    enum Boxed: String, Sendable, CaseIterable {
        case NSString, NSNumber, NSData

        var object: Any {
            switch self {
            case .NSString: "5" as Foundation.NSString
            case .NSNumber: 5 as Foundation.NSNumber
            case .NSData: Data([5]) as Foundation.NSData
            }
        }
    }

    @Test(arguments: Boxed.allCases, Boxed.allCases)
    func stringsNumbersAndDataDoNotSwap(expected: Boxed, found: Boxed) throws {
        let bytes = try Self.archive(SampleBox(.object(found.object)))
        let report = try Inspect.report(bytes, policy: Self.keysPolicy(Self.box, #"{"value": "\#(expected.rawValue)"}"#))
        #expect(Self.lines(report) == (expected == found ? [] : ["policy.class_mismatch /root/value \(found.rawValue) value"]))
    }

    /// What a box holds inline (`encode(_: Int, forKey:)` …).
    enum Inline: Sendable {
        case integer(Int), real(Double), bool(Bool)

        var content: SampleBox.Content {
            switch self {
            case .integer(let value): .integer(value)
            case .real(let value): .real(value)
            case .bool(let value): .bool(value)
            }
        }
    }

    @Test(arguments: [
        ("string", Inline.integer(5), "policy.inline_type_mismatch"),
        ("NSNumber", .integer(5), "policy.inline_type_mismatch"),
        ("integer", .real(1.5), "policy.inline_type_mismatch"),
        ("real", .integer(1), "policy.inline_type_mismatch"),
        ("integer", .bool(true), "policy.inline_type_mismatch"),
        ("integer", .integer(5), nil),
        ("real", .real(-0.5), nil),
        ("bool", .bool(false), nil),
        (#"["bool", "integer"]"#, .bool(true), nil),
    ] as [(String, Inline, String?)])
    func inlineScalarsMatchOnlyTheirKind(expected: String, value: Inline, code: String?) throws {
        let expectation = expected.hasPrefix("[") ? expected : #""\#(expected)""#
        for format in FixtureFormat.allCases {
            let report = try Inspect.report(Self.archive(SampleBox(value.content), format),
                                            policy: Self.keysPolicy(Self.box, #"{"value": \#(expectation)}"#))
            #expect(Self.lines(report) == (code.map { ["\($0) /root/value \(Self.box) value"] } ?? []), "\(format)")
        }
    }

    /// `redact` must null every violating value, inline scalars included (core bug: they are kept).
    @Test func redactNullsInlineScalarsThatViolate() throws {
        let bytes = try Self.archive(SampleBox(.integer(5), extras: [("note", "kept" as NSString)]))
        let policy = Self.keysPolicy(Self.box, #"{"value": "string", "note": "NSString"}"#, redact: true)
        let inspection = try ArchiveInspector(policy: policy).convert(bytes, mode: .plain)
        #expect(Self.lines(inspection.report) == ["policy.inline_type_mismatch /root/value \(Self.box) value"])
        #expect(inspection.json.map { String(decoding: $0, as: UTF8.self) } == #"{"root":{"$class":"\#(Self.box)","note":"kept","value":null}}"#)
        // An unknown key holding an inline scalar (`likes`, from encode(_: Int, forKey:)).
        let post = try Self.archive(SamplePost(title: "T", likes: 7))
        let noLikes = Self.postPolicy(postSchema: #"{"keys": {"title": "NSString", "tags": "NSArray", "author": "\#(Self.author)"}}"#,
                                      extra: #", "onViolation": "redact""#)
        #expect(Self.lines(try Inspect.report(post, policy: noLikes)) == ["policy.unknown_key /root/likes \(Self.post) likes"])
        #expect(try Inspect.json(post, policy: noLikes) == #"{"root":{"$class":"\#(Self.post)","author":null,"likes":null,"tags":[],"title":"T"}}"#)
    }

    // MARK: - Schemas

    @Test func requiredKeysMustBePresentAndNotNil() throws {
        let schema = #"{"keys": {"title": "NSString", "likes": "integer", "subtitle": "NSString", "tags": "NSArray", "author": "\#(Self.author)"}, "required": ["title", "subtitle", "author"]}"#
        let bytes = try Self.archive(SamplePost(title: "T", likes: 1))
        let report = try Inspect.report(bytes, policy: Self.postPolicy(postSchema: schema))
        #expect(Self.lines(report) == ["policy.missing_required_key /root \(Self.post) subtitle",
                                       "policy.missing_required_key /root \(Self.post) author"])
        #expect(report.violations.allSatisfy { $0.uid == 1 })
        let redacting = Self.postPolicy(postSchema: schema, extra: #", "onViolation": "redact""#)
        #expect(try Inspect.json(bytes, policy: redacting) == #"{"root":null}"#)
    }

    @Test func unknownKeysAreRejectedUnlessAllowed() throws {
        let bytes = try Self.archive(SamplePost(title: "T", likes: 1, tags: ["a"]))
        let strict = #"{"keys": {"title": "NSString", "likes": "integer", "author": "\#(Self.author)"}}"#
        #expect(Self.lines(try Inspect.report(bytes, policy: Self.postPolicy(postSchema: strict)))
                == ["policy.unknown_key /root/tags \(Self.post) tags"])
        let redacting = Self.postPolicy(postSchema: strict, extra: #", "onViolation": "redact""#)
        #expect(try Inspect.json(bytes, policy: redacting)
                == #"{"root":{"$class":"\#(Self.post)","author":null,"likes":1,"tags":null,"title":"T"}}"#)
        let lenient = #"{"keys": {"title": "NSString", "likes": "integer"}, "unknownKeys": "allow"}"#
        #expect(try Inspect.report(bytes, policy: Self.postPolicy(postSchema: lenient)).valid)
    }

    @Test func collectionElementsAreCheckedAgainstTheirKey() throws {
        let bytes = try Self.archive(SamplePost(title: "T", likes: 1, tags: ["a", "b"]))
        let numbersOnly = #"{"keys": {"title": "NSString", "likes": "integer", "author": "\#(Self.author)", "tags": {"classes": ["NSArray"], "elements": ["NSNumber"]}}}"#
        let policy = Self.postPolicy(postSchema: numbersOnly, extra: #", "onViolation": "redact""#)
        #expect(Self.lines(try Inspect.report(bytes, policy: policy))
                == ["policy.class_mismatch /root/tags/0 NSString -", "policy.class_mismatch /root/tags/1 NSString -"])
        #expect(try Inspect.json(bytes, policy: policy)
                == #"{"root":{"$class":"\#(Self.post)","author":null,"likes":1,"tags":[null,null],"title":"T"}}"#)
    }

    @Test func dictionaryKeysAndValuesAreCheckedAgainstTheirKey() throws {
        let expectation = #"{"value": {"classes": ["NSDictionary"], "dictionaryKeys": ["NSString"], "elements": ["NSString"]}}"#
        let policy = Self.keysPolicy(Self.box, expectation)
        let numberKey = try Self.archive(SampleBox(.object([1 as NSNumber: "one"] as NSDictionary)))
        #expect(Self.lines(try Inspect.report(numberKey, policy: policy)) == ["policy.class_mismatch /root/value/0/key NSNumber -"])
        let numberValue = try Self.archive(SampleBox(.object(["k": 2 as NSNumber] as NSDictionary)))
        #expect(Self.lines(try Inspect.report(numberValue, policy: policy)) == ["policy.class_mismatch /root/value/k NSNumber -"])
        let fine = try Self.archive(SampleBox(.object(["k": "v"] as NSDictionary)))
        #expect(try Inspect.report(fine, policy: policy).valid)
    }

    @Test func unconstrainedElementsMustBeAllowed() throws {
        let bytes = try Self.archive([SampleAuthor(name: "A")] as NSArray)
        let report = try Inspect.report(bytes, policy: .foundation)
        #expect(Self.lines(report) == ["policy.class_not_allowed /root/0 \(Self.author) -"])
        let nested = try Self.archive(["k": NSUUID()] as NSDictionary)
        let plistOnly = Inspect.policy(#"{"allow": ["plist"]}"#)
        #expect(Self.lines(try Inspect.report(nested, policy: plistOnly)) == ["policy.class_not_allowed /root/k NSUUID -"])
    }

    @Test func theRootMustBeARootClass() throws {
        let bytes = try Self.archive(["k": "v"] as NSDictionary)
        let report = try Inspect.report(bytes, policy: Inspect.policy(#"{"root": ["NSArray"], "allow": ["plist"]}"#))
        #expect(Self.lines(report) == ["policy.class_mismatch /root NSDictionary -"])
    }

    @Test func foundationsOwnFieldsAreCheckedLikeItsDecoders() throws {
        // An attributed string whose NSString is a number: Foundation decodes NSString as a string.
        // Its runs cannot be read without the text, so the object is not read as an attributed
        // string and the field check reports the mismatch at the object.
        let bytes = HandBuilt.root { builder in
            let number = builder.add(5)
            let attributes = builder.dictionary(keys: [], values: [])
            let record = builder.classRecord("NSAttributedString")
            return builder.object(class: record, fields: ["NSString": .uid(number), "NSAttributes": .uid(attributes)])
        }
        #expect(Self.lines(try Inspect.report(bytes, policy: .foundation)) == ["archive.shape_mismatch /root NSAttributedString NSString"])
    }

    // MARK: - The report

    @Test func reportsAreDeterministicAndSorted() throws {
        let bytes = HandBuilt.root { builder in
            let zebra = builder.object(class: builder.classRecord("Zebra"), fields: [:])
            let apple = builder.object(class: builder.classRecord("Apple"), fields: [:])
            let mango = builder.object(class: builder.classRecord("Mango"), fields: [:])
            let key = builder.add("k")
            let dictionary = builder.dictionary(keys: [key], values: [zebra])
            return builder.array(of: [dictionary, apple, mango, apple])
        }
        let first = try Inspect.report(bytes, policy: .foundation)
        let second = try Inspect.report(bytes, policy: .foundation)
        #expect(first == second)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try encoder.encode(first) == encoder.encode(second))
        #expect(first.classes.map(\.name) == ["Apple", "Mango", "NSArray", "NSDictionary", "NSString", "Zebra"])
        #expect(first.classes.map(\.count) == [1, 1, 1, 1, 1, 1])
        #expect(first.classes.map(\.allowed) == [false, false, true, true, true, false])
        // A collection's elements are checked where the collection is entered, then the walk goes
        // depth-first in archive order; a shared object is reported at each site.
        #expect(Self.lines(first) == ["policy.class_not_allowed /root/1 Apple -", "policy.class_not_allowed /root/2 Mango -",
                                      "policy.class_not_allowed /root/3 Apple -", "policy.class_not_allowed /root/0/k Zebra -"])
        #expect(first.violations.map(\.uid) == [4, 6, 4, 2])
    }

    @Test func violationsPastTheLimitAreCountedNotListed() throws {
        let bytes = try Self.archive([SampleAuthor(name: "a"), SampleAuthor(name: "b"), SampleAuthor(name: "c")] as NSArray)
        let report = try Inspect.report(bytes, policy: Inspect.policy(#"{"allow": ["foundation"], "limits": {"maxViolations": 2}}"#))
        #expect(!report.valid)
        #expect(report.violations.count == 2)
        #expect(report.violationsTruncated)
        #expect(report.limits.maxViolations == 2)
    }
}
