import Testing
@testable import ArchiveGateCore

/// Hand-made archives breaking one keyed-archive rule each (DESIGN §3–§4); each asserts its code.
@Suite struct KeyedArchiveStructureTests {
    static func archiveError(_ bytes: [UInt8], policy: Policy = .inspection, mode: OutputMode = .plain) -> String? {
        do {
            _ = try ArchiveInspector(policy: policy).convert(bytes, mode: mode)
            return nil
        } catch {
            return error.code.rawValue
        }
    }

    static func archive(_ build: (inout KeyedArchiveBuilder) -> Void) -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        build(&builder)
        return builder.binary()
    }

    static func rawArchive(top: PropertyListValue, objects: [PropertyListValue], archiver: String = "NSKeyedArchiver") -> [UInt8] {
        BinaryPropertyListWriter.write(.dictionary([
            "$version": 100000, "$archiver": .string(archiver), "$top": top, "$objects": .array(objects),
        ]))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var rule: String
        var code: String
        var bytes: @Sendable () -> [UInt8]
        var testDescription: String { rule }
    }

    static let cases: [Case] = [
        Case(rule: "top level is not a dictionary", code: "archive.not_a_keyed_archive") { BinaryPropertyListWriter.write(["a"]) },
        Case(rule: "no $objects", code: "archive.not_a_keyed_archive") {
            BinaryPropertyListWriter.write(.dictionary(["$archiver": "NSKeyedArchiver", "$top": .dictionary([:])]))
        },
        Case(rule: "another archiver", code: "archive.unsupported_archiver") {
            rawArchive(top: .dictionary([:]), objects: ["$null"], archiver: "NSArchiver")
        },
        Case(rule: "$version is a string", code: "archive.invalid_version") {
            BinaryPropertyListWriter.write(.dictionary(["$version": "1", "$archiver": "NSKeyedArchiver", "$top": .dictionary([:]), "$objects": ["$null"]]))
        },
        Case(rule: "$objects[0] is not $null", code: "archive.invalid_objects") { rawArchive(top: .dictionary([:]), objects: ["x"]) },
        Case(rule: "$objects is empty", code: "archive.invalid_objects") { rawArchive(top: .dictionary([:]), objects: []) },
        Case(rule: "$objects holds an array", code: "archive.invalid_objects") { rawArchive(top: .dictionary([:]), objects: ["$null", [1]]) },
        Case(rule: "$top value is an array", code: "archive.invalid_top") { rawArchive(top: .dictionary(["root": [1]]), objects: ["$null"]) },
        Case(rule: "$top value is a dictionary", code: "archive.invalid_top") {
            rawArchive(top: .dictionary(["root": .dictionary(["a": 1])]), objects: ["$null"])
        },
        Case(rule: "dangling UID in $top", code: "archive.dangling_uid") { rawArchive(top: .dictionary(["root": .uid(7)]), objects: ["$null"]) },
        Case(rule: "dangling UID in a field", code: "archive.dangling_uid") {
            archive { builder in
                let record = builder.classRecord("Thing")
                builder.setTop("root", builder.object(class: record, fields: ["next": .uid(99)]))
            }
        },
        Case(rule: "class record used as a value", code: "archive.class_record_as_value") {
            archive { builder in
                let record = builder.classRecord("Thing")
                builder.setTop("root", builder.object(class: record, fields: ["cls": .uid(record)]))
            }
        },
        Case(rule: "$class is not a class record", code: "archive.invalid_class_reference") {
            archive { builder in
                let text = builder.add("not a class")
                builder.setTop("root", builder.add(.dictionary(["$class": .uid(text)])))
            }
        },
        Case(rule: "$classname is not a string", code: "archive.invalid_class_record") {
            archive { builder in
                let record = builder.add(.dictionary(["$classname": 5, "$classes": ["X"]]))
                builder.setTop("root", builder.add(.dictionary(["$class": .uid(record)])))
            }
        },
        Case(rule: "$classes is not an array of strings", code: "archive.invalid_class_record") {
            archive { builder in
                let record = builder.add(.dictionary(["$classname": "X", "$classes": "X"]))
                builder.setTop("root", builder.add(.dictionary(["$class": .uid(record)])))
            }
        },
        Case(rule: "dictionary with neither $class nor $classname", code: "archive.missing_class") {
            archive { builder in builder.setTop("root", builder.add(.dictionary(["x": 1]))) }
        },
        Case(rule: "both $class and $classname", code: "archive.invalid_object") {
            archive { builder in
                let record = builder.classRecord("X")
                builder.setTop("root", builder.add(.dictionary(["$class": .uid(record), "$classname": "Y"])))
            }
        },
        Case(rule: "field holding a dictionary", code: "archive.invalid_field_value") {
            archive { builder in
                let record = builder.classRecord("X")
                builder.setTop("root", builder.object(class: record, fields: ["inner": .dictionary(["a": 1])]))
            }
        },
        Case(rule: "field holding nested arrays", code: "archive.invalid_field_value") {
            archive { builder in
                let record = builder.classRecord("X")
                builder.setTop("root", builder.object(class: record, fields: ["inner": [[1]]]))
            }
        },
        Case(rule: "field holding a plist set (corelibs' unarchiver segfaults on one)", code: "archive.invalid_field_value") {
            archive { builder in
                let record = builder.classRecord("X")
                builder.setTop("root", builder.object(class: record, fields: ["tags": .set([1, 2])]))
            }
        },
        Case(rule: "single-$ key that is not generated", code: "archive.reserved_key") {
            archive { builder in
                let record = builder.classRecord("X")
                builder.setTop("root", builder.object(class: record, fields: ["$evil": 1]))
            }
        },
        Case(rule: "array containing itself", code: "archive.collection_cycle") {
            archive { builder in
                let array = builder.reserve()
                let record = builder.classRecord("NSMutableArray")
                builder.set(array, to: .dictionary(["NS.objects": [.uid(array)], "$class": .uid(record)]))
                builder.setTop("root", array)
            }
        },
        Case(rule: "two arrays containing each other", code: "archive.collection_cycle") {
            archive { builder in
                let first = builder.reserve()
                let second = builder.reserve()
                let record = builder.classRecord("NSMutableArray")
                builder.set(first, to: .dictionary(["NS.objects": [.uid(second)], "$class": .uid(record)]))
                builder.set(second, to: .dictionary(["NS.objects": [.uid(first)], "$class": .uid(record)]))
                builder.setTop("root", first)
            }
        },
        Case(rule: "depth 513 exceeds the default 512", code: "archive.depth_limit_exceeded") { chain(depth: 513) },
        Case(rule: "depth 100,000", code: "archive.depth_limit_exceeded") { chain(depth: 100_000) },
    ]

    static func chain(depth: Int) -> [UInt8] {
        archive { builder in
            let record = builder.classRecord("Node")
            var next: UInt32 = 0
            for _ in 0 ..< depth { next = builder.object(class: record, fields: ["child": .uid(next)]) }
            builder.setTop("root", next)
        }
    }

    static func laughs(levels: Int) -> [UInt8] {
        archive { builder in
            var level = builder.add("lol")
            for _ in 0 ..< levels { level = builder.array(of: [level, level]) }
            builder.setTop("root", level)
        }
    }

    @Test(arguments: cases)
    func ruleViolationHasItsCode(_ input: Case) {
        #expect(Self.archiveError(input.bytes()) == input.code)
    }

    @Test func depth512IsAccepted() throws {
        let json = try ArchiveInspector(policy: .inspection).convert(Self.chain(depth: 512), mode: .plain).json
        #expect(json != nil)
    }

    @Test func cycleThroughCustomObjectsRendersRef() throws {
        let bytes = Self.archive { builder in
            let record = builder.classRecord("Parent")
            let childRecord = builder.classRecord("Child")
            let parent = builder.reserve()
            let child = builder.object(class: childRecord, fields: ["parent": .uid(parent)])
            let children = builder.array(of: [child])
            builder.set(parent, to: .dictionary(["children": .uid(children), "$class": .uid(record)]))
            builder.setTop("root", parent)
        }
        let json = try ArchiveInspector(policy: .inspection).convert(bytes, mode: .plain).json
        #expect(json.map { String(decoding: $0, as: UTF8.self) }
            == #"{"root":{"$class":"Parent","children":[{"$class":"Child","parent":{"$ref":"/root"}}]}}"#)
    }

    @Test func sharedObjectsAreWrittenOnceWithinBudget() throws {
        let bytes = Self.laughs(levels: 3)
        let json = try ArchiveInspector(policy: .foundation).convert(bytes, mode: .plain).json
        #expect(json.map { String(decoding: $0, as: UTF8.self) }
            == #"{"root":[[["lol","lol"],{"$ref":"/root/0/0"}],{"$ref":"/root/0"}]}"#)
        var tight = Policy.foundation
        tight.limits.maxOutputNodes = 5
        #expect(Self.archiveError(bytes, policy: tight) == "archive.output_limit_exceeded")
        var smallBytes = Policy.foundation
        smallBytes.limits.maxOutputBytes = 20
        #expect(Self.archiveError(bytes, policy: smallBytes) == "archive.output_limit_exceeded")
    }

    @Test func aBombRendersInSizeProportionalToTheArchive() throws {
        // 2^60 leaves if expanded; written once per object, it is 60 levels of `[…,{"$ref"}]`.
        let bytes = Self.laughs(levels: 60)
        let clock = ContinuousClock()
        var json: [UInt8]?
        let elapsed = try clock.measure { json = try ArchiveInspector(policy: .foundation).convert(bytes, mode: .plain).json }
        let size = try #require(json).count
        #expect(size <= 16 * bytes.count, "\(size) bytes of JSON from \(bytes.count)")
        #expect(elapsed < .seconds(1))
    }

    @Test func validationOfABombIsLinear() throws {
        let report = try ArchiveInspector(policy: .foundation).validate(Self.laughs(levels: 60))
        #expect(report.valid)
        #expect(report.objectCount == 63)
    }

    @Test func objectLimitApplies() {
        var policy = Policy.inspection
        policy.limits.maxObjects = 10
        #expect(Self.archiveError(Self.chain(depth: 20), policy: policy) == "plist.object_limit_exceeded")
    }

    @Test func generatedDollarKeysAreAccepted() throws {
        let bytes = Self.archive { builder in
            let record = builder.classRecord("_NSKeyedCoderOldStyleArray")
            builder.setTop("root", builder.object(class: record, fields: ["$0": 1, "$1": 2, "NS.count": 2]))
        }
        let json = try ArchiveInspector(policy: .inspection).convert(bytes, mode: .plain).json
        #expect(json.map { String(decoding: $0, as: UTF8.self) }
            == #"{"root":{"$class":"_NSKeyedCoderOldStyleArray","$0":1,"$1":2,"NS.count":2}}"#)
    }

    @Test func escapedUserKeysStayEscaped() throws {
        let bytes = Self.archive { builder in
            let record = builder.classRecord("X")
            builder.setTop("root", builder.object(class: record, fields: ["$$class": "mine"]))
        }
        let json = try ArchiveInspector(policy: .inspection).convert(bytes, mode: .plain).json
        #expect(json.map { String(decoding: $0, as: UTF8.self) } == #"{"root":{"$class":"X","$$class":"mine"}}"#)
    }
}
