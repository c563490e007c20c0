import Foundation
import Testing
@testable import ArchiveGateCore

/// NSAttributedString as its runs, `[{"text","attributes"}]`: the text split by `NSAttributeInfo`
/// (varint pairs: run length in UTF-16 units, index into the `NSAttributes` array), or one run with
/// the `NSAttributes` dictionary when there is no table. Foundation-written where corelibs can write
/// the case; hand-built (same field names) for run tables no archiver writes.
@Suite struct AttributedRunsTests {
    static let key = NSAttributedString.Key("k")

    /// Lengths are UTF-16 units: a run over an emoji is two units and renders as the whole emoji.
    @Test func runsSplitOnUTF16UnitsAroundNonBMPCharacters() throws {
        let text = NSMutableAttributedString(string: "a😀b")
        text.addAttribute(Self.key, value: "v", range: NSRange(location: 1, length: 2))
        try expectFoundationPlain(text, #"{"root":[{"text":"a","attributes":{}},{"text":"😀","attributes":{"k":"v"}},{"text":"b","attributes":{}}]}"#)
    }

    @Test(arguments: FixtureFormat.allCases)
    func foundationWrittenRunsAreValidUnderTheFoundationGroup(format: FixtureFormat) throws {
        let text = NSMutableAttributedString(string: "x😀yz")
        text.addAttribute(Self.key, value: "v", range: NSRange(location: 0, length: 3))
        let report = try Inspect.report(FoundationFixture.archive(text, as: format), policy: .foundation)
        #expect(report.valid, "\(report.violations.map(\.message))")
    }

    /// Little-endian base-128 varints, as NSAttributeInfo packs them.
    static func varints(_ values: [UInt64]) -> PropertyListValue {
        var bytes = [UInt8]()
        for var value in values {
            while value >= 0x80 {
                bytes.append(UInt8(value & 0x7F) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }
        return .data(bytes)
    }

    /// An attributed string with `text`, one attribute dictionary per entry of `dictionaries`
    /// (`{"k": value}`; an array of them when `array`), and `info` as NSAttributeInfo.
    static func attributed(_ text: String, dictionaries: [String], array: Bool = true, info: PropertyListValue?,
                           attributeValue: ((inout KeyedArchiveBuilder, String) -> UInt32)? = nil) -> [UInt8] {
        HandBuilt.root { builder in
            let string = builder.add(.string(text))
            let key = builder.add(.string("k"))
            let made = dictionaries.map { value in
                builder.dictionary(keys: [key], values: [attributeValue?(&builder, value) ?? builder.add(.string(value))])
            }
            let attributes = array ? builder.array(of: made) : made[0]
            var fields: [PropertyListValue.Entry] = [.init(key: "NSString", value: .uid(string)), .init(key: "NSAttributes", value: .uid(attributes))]
            // Both archivers write the run table as a reference to data (corelibs' decoder refuses inline data).
            if let info {
                if case .data = info {
                    fields.append(.init(key: "NSAttributeInfo", value: .uid(builder.add(info))))
                } else {
                    fields.append(.init(key: "NSAttributeInfo", value: info))
                }
            }
            return builder.object(class: builder.classRecord("NSAttributedString"), entries: fields)
        }
    }

    @Test func anInlineRunTableIsRefusedAsFoundationReadsAReference() throws {
        let bytes = HandBuilt.root { builder in
            let string = builder.add(.string("ab"))
            let key = builder.add(.string("k"))
            let made = ["x", "y"].map { builder.dictionary(keys: [key], values: [builder.add(.string($0))]) }
            return builder.object(class: builder.classRecord("NSAttributedString"), fields: [
                "NSString": .uid(string), "NSAttributes": .uid(builder.array(of: made)), "NSAttributeInfo": Self.varints([1, 0, 1, 1]),
            ])
        }
        let report = try Inspect.report(bytes, policy: .foundation)
        #expect(report.violations.map { "\($0.code) \($0.key ?? "-")" } == ["archive.shape_mismatch NSAttributeInfo"])
    }

    /// A dictionary is an object shared by its runs: written at the first, `$ref` at the others.
    @Test func aDictionaryUsedByTwoRunsIsWrittenOnceThenReferenced() throws {
        let bytes = Self.attributed("abc", dictionaries: ["x", "y"], info: Self.varints([1, 0, 1, 1, 1, 0]))
        #expect(try Inspect.json(bytes, policy: .foundation)
            == #"{"root":[{"text":"a","attributes":{"k":"x"}},{"text":"b","attributes":{"k":"y"}},{"text":"c","attributes":{"$ref":"/root/0/attributes"}}]}"#)
    }

    @Test func oneDictionaryWithARunTableNamingItIsRead() throws {
        let bytes = Self.attributed("abc", dictionaries: ["x"], array: false, info: Self.varints([2, 0, 1, 0]))
        #expect(try Inspect.json(bytes, policy: .foundation) == #"{"root":[{"text":"ab","attributes":{"k":"x"}},{"text":"c","attributes":{"$ref":"/root/0/attributes"}}]}"#)
    }

    @Test func typedModeKeepsTheArchiveFields() throws {
        let bytes = Self.attributed("abc", dictionaries: ["x", "y"], info: Self.varints([1, 0, 2, 1]))
        let typed = try #require(try Inspect.json(bytes, policy: .foundation, mode: .typed))
        // The run table's own bytes (1,0 2,1), not the split text.
        #expect(typed.contains(#""NSAttributeInfo":{"$uid":"#))
        #expect(typed.contains("AQACAQ=="))
        #expect(!typed.contains("\"text\""))
    }

    /// A refused attribute value is reported where the JSON shows it, and nulled there under redact.
    @Test func attributeValuesAreWalkedAtTheirRunsPointer() throws {
        let bytes = Self.attributed("ab", dictionaries: ["x", "evil"], info: Self.varints([1, 0, 1, 1])) { builder, value in
            value == "evil" ? builder.object(class: builder.classRecord("Evil.Payload"), fields: [:]) : builder.add(.string(value))
        }
        let report = try Inspect.report(bytes, policy: .foundation)
        #expect(report.violations.map { "\($0.code) \($0.path)" } == ["policy.class_not_allowed /root/1/attributes/k"])
        let redacting = Inspect.policy(#"{"allow": ["foundation"], "onViolation": "redact"}"#)
        #expect(try Inspect.json(bytes, policy: redacting) == #"{"root":[{"text":"a","attributes":{"k":"x"}},{"text":"b","attributes":{"k":null}}]}"#)
    }

    // MARK: Hostile run tables

    struct Hostile: CustomTestStringConvertible, Sendable {
        let rule: String
        let code: String
        let key: String
        let bytes: @Sendable () -> [UInt8]
        var testDescription: String { rule }
    }

    static let hostile: [Hostile] = [
        Hostile(rule: "runs past the end of the string", code: "archive.invalid_value", key: "NSAttributeInfo") {
            attributed("abc", dictionaries: ["x", "y"], info: varints([2, 0, 5, 1]))
        },
        Hostile(rule: "runs that stop short of the end", code: "archive.invalid_value", key: "NSAttributeInfo") {
            attributed("abc", dictionaries: ["x", "y"], info: varints([1, 0, 1, 1]))
        },
        Hostile(rule: "a run that ends inside a surrogate pair", code: "archive.invalid_value", key: "NSAttributeInfo") {
            attributed("a😀", dictionaries: ["x", "y"], info: varints([2, 0, 1, 1]))
        },
        Hostile(rule: "lengths that wrap around 2^64 to the string's length", code: "archive.invalid_value", key: "NSAttributeInfo") {
            attributed("abc", dictionaries: ["x", "y"], info: varints([UInt64.max, 0, 4, 1]))
        },
        Hostile(rule: "a run naming a dictionary that is not there", code: "archive.invalid_value", key: "NSAttributeInfo") {
            attributed("abc", dictionaries: ["x", "y"], info: varints([3, 2]))
        },
        Hostile(rule: "an attribute array without a run table", code: "archive.missing_field", key: "NSAttributeInfo") {
            attributed("abc", dictionaries: ["x", "y"], info: nil)
        },
        Hostile(rule: "NSAttributeInfo that is not data", code: "archive.shape_mismatch", key: "NSAttributeInfo") {
            attributed("abc", dictionaries: ["x", "y"], info: .string("3 0"))
        },
        Hostile(rule: "NSAttributes that is neither a dictionary nor an array", code: "archive.shape_mismatch", key: "NSAttributes") {
            HandBuilt.root { builder in
                let string = builder.add(.string("abc"))
                let date = builder.object(class: builder.classRecord("NSDate"), fields: ["NS.time": 0])
                return builder.object(class: builder.classRecord("NSAttributedString"), fields: ["NSString": .uid(string), "NSAttributes": .uid(date)])
            }
        },
    ]

    @Test(arguments: hostile)
    func hostileRunTablesAreTypedViolationsAtTheString(_ example: Hostile) throws {
        let report = try Inspect.report(example.bytes(), policy: .foundation)
        let violation = try #require(report.violations.first)
        #expect(violation.code.rawValue == example.code)
        #expect(violation.key == example.key)
        #expect(violation.path == "/root")
        #expect(try Inspect.json(example.bytes(), policy: .foundation) == nil)
        // Inspection reports it too and shows the fields as they are rather than guessed runs.
        let inspected = try #require(try Inspect.json(example.bytes()))
        #expect(inspected.hasPrefix(#"{"root":{"$class":"NSAttributedString""#))
    }
}
