import Foundation
import Testing
@testable import ArchiveGateCore

/// NSHashTable, NSMapTable and NSPointerArray (group `pointer-collections`). corelibs has none of
/// these classes, so every archive here is hand-built with the layout of Apple's Foundation
/// (`-[NSConcreteHashTable encodeWithCoder:]`, `-[NSConcreteMapTable encodeWithCoder:]`,
/// `-[NSConcretePointerArray encodeWithCoder:]`, iOS 18 Foundation decompiled): options under `$0`
/// (and the map table's value options or the pointer array's count under `$1`), the members as
/// further unkeyed objects, the `$null` end marker, and `NS.count` (hash and map tables).
@Suite struct PointerCollectionTests {
    static let policy = Inspect.policy(#"{"allow": ["foundation", "pointer-collections"]}"#)

    /// A table of class `name` whose numbered fields are `header` then the UIDs `build` returns
    /// (0 is `$null`), plus `extra` fields.
    static func table(_ name: String, header: [Int128], count: Int128? = nil, members build: (inout KeyedArchiveBuilder) -> [UInt32],
                      extra: [String: PropertyListValue] = [:]) -> [UInt8] {
        HandBuilt.root { builder in
            let members = build(&builder)
            var entries = header.enumerated().map { PropertyListValue.Entry(key: "$\($0.offset)", value: .integer($0.element)) }
            for (offset, member) in members.enumerated() {
                entries.append(PropertyListValue.Entry(key: "$\(header.count + offset)", value: .uid(member)))
            }
            if let count { entries.append(PropertyListValue.Entry(key: "NS.count", value: .integer(count))) }
            for (key, value) in extra.sorted(by: { $0.key < $1.key }) { entries.append(PropertyListValue.Entry(key: key, value: value)) }
            return builder.object(class: builder.classRecord(name), entries: entries)
        }
    }

    static func strings(_ builder: inout KeyedArchiveBuilder, _ texts: String...) -> [UInt32] {
        texts.map { builder.add(.string($0)) }
    }

    static let hashTable = table("NSHashTable", header: [0], count: 2) { Self.strings(&$0, "a", "b") + [0] }
    static let mapTable = table("NSMapTable", header: [0, 0], count: 2) { Self.strings(&$0, "k1", "v1", "k2", "v2") + [0] }
    static let pointerArray = table("NSPointerArray", header: [0, 3]) { builder in
        let members = Self.strings(&builder, "a", "b")
        return [members[0], 0, members[1], 0]
    }

    // MARK: Natural JSON

    @Test func aHashTableRendersAsAnArrayOfItsMembers() throws {
        #expect(try Inspect.json(Self.hashTable, policy: Self.policy) == #"{"root":["a","b"]}"#)
    }

    @Test func aWeakHashTableSkipsItsNilMembersAsFoundationDoes() throws {
        let bytes = Self.table("NSHashTable", header: [5], count: 3) { builder in
            let members = Self.strings(&builder, "a", "b")
            return [members[0], 0, members[1], 0]
        }
        #expect(try Inspect.json(bytes, policy: Self.policy) == #"{"root":["a","b"]}"#)
    }

    @Test func aHashTableWithoutNSCountReadsUpToTheEndMarker() throws {
        let bytes = Self.table("NSHashTable", header: [0]) { Self.strings(&$0, "a") + [0] }
        #expect(try Inspect.json(bytes, policy: Self.policy) == #"{"root":["a"]}"#)
    }

    @Test func aPointerArrayKeepsItsNullPointers() throws {
        #expect(try Inspect.json(Self.pointerArray, policy: Self.policy) == #"{"root":["a",null,"b"]}"#)
    }

    @Test func aMapTableWithStringKeysRendersAsAnObject() throws {
        #expect(try Inspect.json(Self.mapTable, policy: Self.policy) == #"{"root":{"k1":"v1","k2":"v2"}}"#)
    }

    @Test func aMapTableWithOtherKeysRendersAsKeyValuePairsLikeNSDictionary() throws {
        let bytes = Self.table("NSMapTable", header: [0, 0], count: 1) { builder in
            [builder.add(.integer(7)), builder.add(.string("seven")), 0]
        }
        #expect(try Inspect.json(bytes, policy: Self.policy) == #"{"root":[{"key":7,"value":"seven"}]}"#)
    }

    @Test func typedModeShowsTheNumberedFields() throws {
        let json = try #require(try Inspect.json(Self.hashTable, policy: Self.policy, mode: .typed))
        #expect(json.contains("NS.count"))
        #expect(json.contains("$0"))
    }

    // MARK: Policy

    @Test func theyAreInTheirOwnGroupNotFoundation() throws {
        #expect(Policy.namedGroups["pointer-collections"] == ["NSHashTable", "NSMapTable", "NSPointerArray"])
        #expect(!Policy.foundationGroup.contains("NSHashTable"))
        let report = try Inspect.report(Self.hashTable, policy: .foundation)
        #expect(report.violations.first?.code.rawValue == "policy.class_not_allowed")
    }

    @Test(arguments: ["NSHashTable", "NSPointerArray"])
    func membersAreCheckedAgainstThePolicy(_ name: String) throws {
        let bytes = Self.table(name, header: name == "NSPointerArray" ? [0, 2] : [0], count: name == "NSPointerArray" ? nil : 2) { builder in
            [builder.add(.string("a")), builder.object(class: builder.classRecord("Evil.Payload"), fields: [:]), 0]
        }
        let report = try Inspect.report(bytes, policy: Self.policy)
        #expect(report.violations.map { $0.code.rawValue } == ["policy.class_not_allowed"])
        #expect(report.violations.first?.path == "/root/1")
    }

    @Test func mapTableKeysAndValuesAreCheckedAgainstTheKeySchema() throws {
        let policy = Inspect.policy(#"""
            {"allow": ["foundation", "pointer-collections", "App.Box"],
             "classes": {"App.Box": {"keys": {"table": {"classes": ["NSMapTable"], "dictionaryKeys": ["NSString"], "elements": ["NSDate"]}}}}}
            """#)
        let bytes = HandBuilt.root { builder in
            let members = Self.strings(&builder, "k", "not a date")
            let table = builder.object(class: builder.classRecord("NSMapTable"), fields: [
                "$0": 0, "$1": 0, "$2": .uid(members[0]), "$3": .uid(members[1]), "$4": .uid(0), "NS.count": 1,
            ])
            return builder.object(class: builder.classRecord("App.Box"), fields: ["table": .uid(table)])
        }
        let report = try Inspect.report(bytes, policy: policy)
        #expect(report.violations.map { $0.code.rawValue } == ["policy.class_mismatch"])
        #expect(report.violations.first?.path == "/root/table/k")
    }

    /// `policy suggest` names the group that admits what it saw, not `foundation` for everything.
    @Test func aSuggestedPolicyAdmitsTheirGroup() throws {
        var suggester = PolicySuggester()
        suggester.add(try ArchiveInspector(policy: .inspection).decode(Self.mapTable))
        let suggested = try Policy.load(json: Array(suggester.policyJSON(name: "s").utf8), name: "s")
        #expect(try Inspect.report(Self.mapTable, policy: suggested).valid)
        #expect(suggester.policyJSON(name: "s").contains(#""allow": ["foundation", "pointer-collections"]"#))
    }

    // MARK: Sanitize

    @Test func sanitizeDropsARedactedMemberAndRewritesTheCount() throws {
        let policy = Inspect.policy(#"{"allow": ["foundation", "pointer-collections"], "onViolation": "redact"}"#)
        let bytes = Self.table("NSHashTable", header: [0], count: 3) { builder in
            let members = Self.strings(&builder, "a", "b")
            return [members[0], builder.object(class: builder.classRecord("Evil.Payload"), fields: [:]), members[1], 0]
        }
        let result = try ArchiveSanitizer(inspector: ArchiveInspector(policy: policy)).sanitize(bytes)
        let output = try #require(result.archive)
        #expect(try Inspect.json(output, policy: Self.policy) == #"{"root":["a","b"]}"#)
        let typed = try #require(try Inspect.json(output, policy: Self.policy, mode: .typed))
        #expect(typed.contains(#""$0":0,"$1":{"$uid":3},"$2":{"$uid":4},"$3":{"$uid":0},"NS.count":2}"#))
        #expect(try Inspect.report(output, policy: Self.policy).valid)
    }

    @Test(arguments: [("NSMapTable", #"{"root":{"k1":"v1","k2":"v2"}}"#), ("NSPointerArray", #"{"root":["a",null,"b"]}"#)])
    func sanitizeKeepsAValidTable(_ example: (name: String, json: String)) throws {
        let bytes = example.name == "NSMapTable" ? Self.mapTable : Self.pointerArray
        let output = try #require(try ArchiveSanitizer(inspector: ArchiveInspector(policy: Self.policy)).sanitize(bytes).archive)
        #expect(try Inspect.json(output, policy: Self.policy) == example.json)
    }

    // MARK: Hostile shapes

    struct Hostile: CustomTestStringConvertible, Sendable {
        let rule: String
        let code: String
        let key: String?
        let bytes: @Sendable () -> [UInt8]
        var testDescription: String { rule }
    }

    static let hostile: [Hostile] = [
        Hostile(rule: "NS.count larger than the members", code: "archive.null_element", key: "$3") {
            table("NSHashTable", header: [0], count: 3) { Self.strings(&$0, "a", "b") + [0] }
        },
        Hostile(rule: "NS.count smaller than the members", code: "archive.shape_mismatch", key: "$2") {
            table("NSHashTable", header: [0], count: 1) { Self.strings(&$0, "a", "b") + [0] }
        },
        Hostile(rule: "no $null end marker", code: "archive.missing_field", key: "$3") {
            table("NSHashTable", header: [0], count: 2) { Self.strings(&$0, "a", "b") }
        },
        Hostile(rule: "no end marker and no NS.count", code: "archive.missing_field", key: "$2") {
            table("NSHashTable", header: [0]) { Self.strings(&$0, "a") }
        },
        Hostile(rule: "a gap in the members", code: "archive.missing_field", key: "$2") {
            table("NSHashTable", header: [0], count: 2, members: { Self.strings(&$0, "a") }, extra: ["$3": .uid(1), "$4": .uid(0)])
        },
        Hostile(rule: "a numbered field after the end marker", code: "archive.shape_mismatch", key: "$4") {
            table("NSHashTable", header: [0], count: 1, members: { Self.strings(&$0, "a") + [0] }, extra: ["$4": .uid(1)])
        },
        Hostile(rule: "a huge NS.count", code: "archive.length_mismatch", key: "NS.count") {
            table("NSHashTable", header: [0], count: 1 << 62) { Self.strings(&$0, "a") + [0] }
        },
        Hostile(rule: "a negative NS.count", code: "archive.invalid_value", key: "NS.count") {
            table("NSHashTable", header: [0], count: -1) { _ in [0] }
        },
        Hostile(rule: "a huge pointer array count", code: "archive.shape_mismatch", key: "$1") {
            table("NSPointerArray", header: [0, 1 << 40]) { _ in [0] }
        },
        Hostile(rule: "a negative pointer array count", code: "archive.invalid_value", key: "$1") {
            table("NSPointerArray", header: [0, -3]) { _ in [0] }
        },
        Hostile(rule: "a pointer array count beyond its fields", code: "archive.length_mismatch", key: "$1") {
            table("NSPointerArray", header: [0, 1_000_000]) { Self.strings(&$0, "a") + [0] }
        },
        Hostile(rule: "options Foundation does not archive (opaque memory)", code: "archive.invalid_value", key: "$0") {
            table("NSHashTable", header: [2], count: 1) { Self.strings(&$0, "a") + [0] }
        },
        Hostile(rule: "no options", code: "archive.missing_field", key: "$0") {
            HandBuilt.object("NSHashTable", ["NS.count": 0, "$1": .uid(0)])
        },
        Hostile(rule: "options that are not an inline integer", code: "archive.shape_mismatch", key: "$0") {
            HandBuilt.object("NSHashTable", ["$0": .string("0"), "$1": .uid(0), "NS.count": 0])
        },
        Hostile(rule: "a member that is not a reference", code: "archive.shape_mismatch", key: "$1") {
            HandBuilt.object("NSHashTable", ["$0": 0, "$1": 5, "$2": .uid(0), "NS.count": 1])
        },
        Hostile(rule: "a $null member of a strong hash table", code: "archive.null_element", key: "$1") {
            table("NSHashTable", header: [0], count: 2) { [0] + Self.strings(&$0, "a") + [0] }
        },
        Hostile(rule: "the same member twice", code: "archive.duplicate_member", key: "$2") {
            table("NSHashTable", header: [0], count: 2) { Self.strings(&$0, "a", "a") + [0] }
        },
        Hostile(rule: "the same map table key twice", code: "archive.duplicate_member", key: "$4") {
            table("NSMapTable", header: [0, 0], count: 2) { Self.strings(&$0, "k", "v1", "k", "v2") + [0] }
        },
        Hostile(rule: "a $null value of a strong map table", code: "archive.null_element", key: "$3") {
            table("NSMapTable", header: [0, 0], count: 1) { Self.strings(&$0, "k") + [0, 0] }
        },
        Hostile(rule: "a map table with half a pair", code: "archive.missing_field", key: "$3") {
            table("NSMapTable", header: [0, 0], count: 1, members: { Self.strings(&$0, "k") }, extra: ["$4": .uid(0)])
        },
    ]

    @Test(arguments: hostile)
    func hostileShapesAreTypedViolationsAtTheTable(_ example: Hostile) throws {
        let report = try Inspect.report(example.bytes(), policy: Self.policy)
        #expect(!report.valid)
        let violation = try #require(report.violations.first)
        #expect(violation.code.rawValue == example.code)
        #expect(violation.key == example.key)
        #expect(violation.path == "/root")
        #expect(try Inspect.json(example.bytes(), policy: Self.policy) == nil)
    }

    @Test(arguments: ["NSHashTable", "NSPointerArray", "NSMapTable"])
    func aTableThatHoldsItselfIsACollectionCycle(_ name: String) {
        let bytes = HandBuilt.root { builder in
            let uid = builder.reserve()
            let record = builder.classRecord(name)
            let key = builder.add(.string("self"))
            let fields: KeyValuePairs<String, PropertyListValue> = switch name {
            case "NSMapTable": ["$class": .uid(record), "$0": 0, "$1": 0, "$2": .uid(key), "$3": .uid(uid), "$4": .uid(0), "NS.count": 1]
            case "NSPointerArray": ["$class": .uid(record), "$0": 0, "$1": 1, "$2": .uid(uid), "$3": .uid(0)]
            default: ["$class": .uid(record), "$0": 0, "$1": .uid(uid), "$2": .uid(0), "NS.count": 1]
            }
            builder.set(uid, to: .dictionary(fields.map { PropertyListValue.Entry(key: $0.key, value: $0.value) }))
            return uid
        }
        #expect(Inspect.errorCode(bytes, policy: Self.policy) == "archive.collection_cycle")
    }
}
