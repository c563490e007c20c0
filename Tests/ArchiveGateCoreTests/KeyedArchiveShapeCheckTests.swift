import Testing
@testable import ArchiveGateCore

/// `KeyedArchive.shapeProblems(of:as:)` through the policy walk: one hand-built archive per shape
/// rule and Foundation class, each asserting the violation's code, pointer and key — archives
/// Foundation's `NSKeyedUnarchiver` refuses or decodes to another graph than the plain JSON shows.
@Suite struct KeyedArchiveShapeCheckTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var rule: String
        var code: String
        var path: String = "/root"
        var key: String?
        var bytes: @Sendable () -> [UInt8]
        var testDescription: String { rule }
    }

    static let redact = Inspect.policy(#"{"allow": ["foundation"], "onViolation": "redact"}"#)

    /// An archive whose root is `build`'s object of class `name` (fields built with the builder).
    static func root(_ name: String, _ fields: @escaping (inout KeyedArchiveBuilder) -> KeyValuePairs<String, PropertyListValue>) -> [UInt8] {
        HandBuilt.root { builder in
            let values = fields(&builder)
            return builder.object(class: builder.classRecord(name), fields: values)
        }
    }

    static let cases: [Case] = [
        // NSString
        Case(rule: "NSString NS.string is an integer", code: "archive.shape_mismatch", key: "NS.string") {
            HandBuilt.object("NSString", ["NS.string": 5])
        },
        Case(rule: "NSString has neither NS.string nor NS.bytes", code: "archive.missing_field", key: "NS.string") {
            HandBuilt.object("NSString", [:])
        },
        Case(rule: "NSString NS.bytes is not UTF-8", code: "archive.shape_mismatch", key: "NS.bytes") {
            HandBuilt.object("NSMutableString", ["NS.bytes": .data([0xFF, 0xFE])])
        },
        // NSData
        Case(rule: "NSData NS.data is a reference", code: "archive.shape_mismatch", key: "NS.data") {
            root("NSData") { builder in ["NS.data": .uid(builder.add(.data([1, 2])))] }
        },
        Case(rule: "NSData NS.data is a bool", code: "archive.shape_mismatch", key: "NS.data") { HandBuilt.object("NSData", ["NS.data": true]) },
        Case(rule: "NSData has no NS.data", code: "archive.missing_field", key: "NS.data") { HandBuilt.object("NSData", [:]) },
        // NSDate
        Case(rule: "NSDate NS.time is a string", code: "archive.shape_mismatch", key: "NS.time") {
            HandBuilt.object("NSDate", ["NS.time": "yesterday"])
        },
        Case(rule: "NSDate NS.time is a bool", code: "archive.shape_mismatch", key: "NS.time") { HandBuilt.object("NSDate", ["NS.time": true]) },
        Case(rule: "NSDate has no NS.time", code: "archive.missing_field", key: "NS.time") { HandBuilt.object("NSDate", [:]) },
        // NSUUID
        Case(rule: "NSUUID NS.uuidbytes is 2 bytes", code: "archive.length_mismatch", key: "NS.uuidbytes") {
            HandBuilt.object("NSUUID", ["NS.uuidbytes": .data([1, 2])])
        },
        Case(rule: "NSUUID has no NS.uuidbytes", code: "archive.missing_field", key: "NS.uuidbytes") { HandBuilt.object("NSUUID", [:]) },
        Case(rule: "NSUUID NS.uuidbytes is a string", code: "archive.shape_mismatch", key: "NS.uuidbytes") {
            HandBuilt.object("NSUUID", ["NS.uuidbytes": "0123456789abcdef"])
        },
        // Collections
        Case(rule: "NSArray holds an inline integer among UIDs", code: "archive.shape_mismatch", key: "NS.objects") {
            root("NSArray") { builder in ["NS.objects": [.uid(builder.add("a")), 7]] }
        },
        Case(rule: "NSArray NS.objects is a string", code: "archive.shape_mismatch", key: "NS.objects") {
            HandBuilt.object("NSArray", ["NS.objects": "a"])
        },
        Case(rule: "NSArray holds $null", code: "archive.null_element", key: "NS.objects") {
            HandBuilt.root { builder in builder.array(of: [builder.add("a"), KeyedArchiveBuilder.null]) }
        },
        Case(rule: "NSSet holds one member three times", code: "archive.duplicate_member", key: "NS.objects") {
            HandBuilt.root { builder in
                let member = builder.add("m")
                return builder.array(of: [member, member, member], className: "NSSet")
            }
        },
        Case(rule: "NSSet holds two equal strings", code: "archive.duplicate_member", key: "NS.objects") {
            HandBuilt.root { builder in builder.array(of: [builder.add("m"), builder.add("m")], className: "NSMutableSet") }
        },
        Case(rule: "NSSet holds 1 and 1.0", code: "archive.duplicate_member", key: "NS.objects") {
            HandBuilt.root { builder in builder.array(of: [builder.add(1), builder.add(.real(1))], className: "NSSet") }
        },
        Case(rule: "NSSet holds two distinct but equal NSArrays", code: "archive.duplicate_member", key: "NS.objects") {
            // oracle --seed 7 --only 510744: Foundation's NSArray isEqual compares elements, so the set keeps one.
            HandBuilt.root { builder in
                let first = builder.array(of: [builder.add("a"), builder.add(1)])
                let second = builder.array(of: [builder.add("a"), builder.add(.real(1))], className: "NSMutableArray")
                return builder.array(of: [first, second], className: "NSSet")
            }
        },
        Case(rule: "NSOrderedSet holds a member twice", code: "archive.duplicate_member", key: "NS.objects") {
            HandBuilt.root { builder in
                let member = builder.add("m")
                return builder.array(of: [member, member], className: "NSOrderedSet")
            }
        },
        // NSDictionary
        Case(rule: "NSDictionary NS.objects is a string", code: "archive.shape_mismatch", key: "NS.objects") {
            root("NSDictionary") { builder in ["NS.keys": [.uid(builder.add("k"))], "NS.objects": "v"] }
        },
        Case(rule: "NSDictionary has no NS.keys", code: "archive.missing_field", key: "NS.keys") {
            root("NSDictionary") { builder in ["NS.objects": [.uid(builder.add("v"))]] }
        },
        Case(rule: "NSDictionary NS.keys and NS.objects differ in length", code: "archive.length_mismatch", key: "NS.keys") {
            HandBuilt.root { builder in builder.dictionary(keys: [builder.add("a"), builder.add("b")], values: [builder.add("x")]) }
        },
        Case(rule: "NSDictionary value is $null", code: "archive.null_element", key: "NS.objects") {
            HandBuilt.root { builder in builder.dictionary(keys: [builder.add("k")], values: [KeyedArchiveBuilder.null]) }
        },
        Case(rule: "NSDictionary key is $null", code: "archive.null_element", key: "NS.keys") {
            HandBuilt.root { builder in builder.dictionary(keys: [KeyedArchiveBuilder.null], values: [builder.add("v")]) }
        },
        Case(rule: "NSDictionary has the same key twice", code: "archive.duplicate_member", key: "NS.keys") {
            HandBuilt.root { builder in
                builder.dictionary(keys: [builder.add("k"), builder.add("k")], values: [builder.add("1"), builder.add("2")])
            }
        },
        Case(rule: "NSDictionary has no NS.objects", code: "archive.missing_field", key: "NS.objects") {
            root("NSDictionary") { builder in ["NS.keys": [.uid(builder.add("k"))]] }
        },
        Case(rule: "NSDictionary NS.keys holds an inline key", code: "archive.shape_mismatch", key: "NS.keys") {
            root("NSDictionary") { builder in ["NS.keys": ["k"], "NS.objects": [.uid(builder.add("v"))]] }
        },
        // NSError
        Case(rule: "NSError NSDomain is inline", code: "archive.shape_mismatch", key: "NSDomain") {
            HandBuilt.object("NSError", ["NSCode": 1, "NSDomain": "D"])
        },
        Case(rule: "NSError NSCode is text", code: "archive.shape_mismatch", key: "NSCode") {
            root("NSError") { builder in ["NSCode": "text", "NSDomain": .uid(builder.add("D"))] }
        },
        Case(rule: "NSError has no NSCode", code: "archive.missing_field", key: "NSCode") {
            root("NSError") { builder in ["NSDomain": .uid(builder.add("D"))] }
        },
        Case(rule: "NSError has no NSDomain", code: "archive.missing_field", key: "NSDomain") { HandBuilt.object("NSError", ["NSCode": 1]) },
        Case(rule: "NSError NSUserInfo holds an NSDate", code: "archive.shape_mismatch", key: "NSUserInfo") {
            HandBuilt.root { builder in
                let date = builder.object(class: builder.classRecord("NSDate"), fields: ["NS.time": .real(0)])
                let list = builder.array(of: [date])
                let info = builder.dictionary(keys: [builder.add("when")], values: [list])
                return builder.object(class: builder.classRecord("NSError"),
                                      fields: ["NSCode": 1, "NSDomain": .uid(builder.add("D")), "NSUserInfo": .uid(info)])
            }
        },
        // NSTimeZone, NSLocale, NSURL
        Case(rule: "NSTimeZone NS.name is not a time zone", code: "archive.invalid_value", key: "NS.name") {
            root("NSTimeZone") { builder in ["NS.name": .uid(builder.add("Nowhere/City")), "NS.data": .uid(0)] }
        },
        Case(rule: "NSTimeZone NS.name is a zone name with a NUL (oracle --seed 7 --only 16545)", code: "archive.invalid_value", key: "NS.name") {
            root("NSTimeZone") { builder in ["NS.name": .uid(builder.add("Europe/Paris\u{0}")), "NS.data": .uid(0)] }
        },
        Case(rule: "NSTimeZone NS.name is inline", code: "archive.shape_mismatch", key: "NS.name") {
            HandBuilt.object("NSTimeZone", ["NS.name": "Europe/Paris"])
        },
        Case(rule: "NSLocale NS.identifier is an integer", code: "archive.shape_mismatch", key: "NS.identifier") {
            root("NSLocale") { builder in ["NS.identifier": .uid(builder.add(3))] }
        },
        Case(rule: "NSURL has no NS.relative", code: "archive.missing_field", key: "NS.relative") {
            HandBuilt.object("NSURL", ["NS.base": .uid(0)])
        },
        Case(rule: "NSURL NS.relative is inline", code: "archive.shape_mismatch", key: "NS.relative") {
            HandBuilt.object("NSURL", ["NS.base": .uid(0), "NS.relative": "https://h.example/"])
        },
        Case(rule: "NSURL NS.base is inline", code: "archive.shape_mismatch", key: "NS.base") {
            root("NSURL") { builder in ["NS.base": "https://h.example/", "NS.relative": .uid(builder.add("p"))] }
        },
        // NSAttributedString, NSValue, NSDecimalNumber, NSIndexSet
        Case(rule: "NSAttributedString NSString is inline", code: "archive.shape_mismatch", key: "NSString") {
            HandBuilt.object("NSMutableAttributedString", ["NSString": "text"])
        },
        // Oracle `--seed 3 --only 6031`: corelibs traps bridging it (in NSError's userInfo); Apple's NSURL is nil.
        Case(rule: "NSURL NS.relative is empty without a base", code: "archive.invalid_value", key: "NS.relative") {
            root("NSURL") { builder in ["NS.base": .uid(0), "NS.relative": .uid(builder.add(""))] }
        },
        // Oracle `--seed 3 --only 812`: decodeInteger/decodeDouble read in place, so a UID there decodes as 0.
        Case(rule: "NSError NSCode is a reference to an integer", code: "archive.shape_mismatch", key: "NSCode") {
            root("NSError") { builder in ["NSCode": .uid(builder.add(1_099_511_627_776)), "NSDomain": .uid(builder.add("D"))] }
        },
        Case(rule: "NSDate NS.time is a reference to a real", code: "archive.shape_mismatch", key: "NS.time") {
            root("NSDate") { builder in ["NS.time": .uid(builder.add(.real(5)))] }
        },
        // Oracle `--seed 3`: --only 19188, 18134, 16491, 19456.
        Case(rule: "NSDate NS.time is an integer beyond 64 bits", code: "archive.shape_mismatch", key: "NS.time") {
            HandBuilt.object("NSDate", ["NS.time": .integer(1_180_591_620_717_411_303_424)])
        },
        Case(rule: "NSValue edge inset is a reference", code: "archive.invalid_value", key: "NS.special") {
            root("NSValue") { builder in
                ["NS.special": 12, "NS.edgeval.top": .real(1), "NS.edgeval.left": .uid(builder.add(21)),
                 "NS.edgeval.bottom": .real(3), "NS.edgeval.right": .real(4.5)]
            }
        },
        Case(rule: "NSValue edge inset is an integer beyond 64 bits (oracle --seed 7 --only 562045)", code: "archive.invalid_value", key: "NS.special") {
            HandBuilt.object("NSValue", ["NS.special": 12, "NS.edgeval.top": .real(1), "NS.edgeval.left": .real(2),
                                         "NS.edgeval.bottom": .integer(1_180_591_620_717_411_303_424), "NS.edgeval.right": .real(4.5)])
        },
        Case(rule: "NSError NSUserInfo key is data", code: "archive.shape_mismatch", key: "NSUserInfo") {
            root("NSError") { builder in
                let info = builder.dictionary(keys: [builder.add(.data([1]))], values: [builder.add("v")])
                return ["NSCode": 1, "NSDomain": .uid(builder.add("D")), "NSUserInfo": .uid(info)]
            }
        },
        Case(rule: "NSDictionary keyed by an array", code: "archive.shape_mismatch", key: "NS.keys") {
            HandBuilt.root { builder in
                builder.dictionary(keys: [builder.array(of: [])], values: [builder.add("v")])
            }
        },
        Case(rule: "NSDictionary keyed by a dictionary", code: "archive.shape_mismatch", key: "NS.keys") {
            HandBuilt.root { builder in
                builder.dictionary(keys: [builder.dictionary(keys: [], values: [])], values: [builder.add("v")])
            }
        },
        Case(rule: "NSURL has no NS.base (Foundation writes $null)", code: "archive.missing_field", key: "NS.base") {
            root("NSURL") { builder in ["NS.relative": .uid(builder.add("file:///tmp/x"))] }
        },
        Case(rule: "NSAttributedString runs without NSAttributes", code: "archive.missing_field", key: "NSAttributes") {
            root("NSAttributedString") { builder in ["NSString": .uid(builder.add("text")), "NSAttributeInfo": .uid(builder.add(.data([4, 0])))] }
        },
        // Oracle smoke `--only 504`: corelibs reads attributes only for a non-empty string, and then requires them.
        Case(rule: "NSAttributedString non-empty string without NSAttributes", code: "archive.missing_field", key: "NSAttributes") {
            root("NSAttributedString") { builder in ["NSString": .uid(builder.add("\u{0}"))] }
        },
        // Oracle smoke `--only 633`, `--only 914`: NSAttributes retargeted to $null.
        Case(rule: "NSMutableAttributedString NSAttributes is $null", code: "archive.missing_field", key: "NSAttributes") {
            root("NSMutableAttributedString") { builder in ["NSString": .uid(builder.add("abc")), "NSAttributes": .uid(0)] }
        },
        Case(rule: "NSAttributedString NSAttributes array without NSAttributeInfo", code: "archive.missing_field", key: "NSAttributeInfo") {
            HandBuilt.root { builder in
                let attributes = builder.array(of: [builder.dictionary(keys: [], values: [])])
                return builder.object(class: builder.classRecord("NSAttributedString"),
                                      fields: ["NSString": .uid(builder.add("text")), "NSAttributes": .uid(attributes)])
            }
        },
        Case(rule: "NSAttributedString runs do not cover the string", code: "archive.invalid_value", key: "NSAttributeInfo") {
            HandBuilt.root { builder in
                let attributes = builder.array(of: [builder.dictionary(keys: [], values: [])])
                return builder.object(class: builder.classRecord("NSAttributedString"),
                                      fields: ["NSString": .uid(builder.add("text")), "NSAttributes": .uid(attributes), "NSAttributeInfo": .uid(builder.add(.data([2, 0])))])
            }
        },
        Case(rule: "NSAttributedString run names a missing attribute dictionary", code: "archive.invalid_value", key: "NSAttributeInfo") {
            HandBuilt.root { builder in
                let attributes = builder.array(of: [builder.dictionary(keys: [], values: [])])
                return builder.object(class: builder.classRecord("NSAttributedString"),
                                      fields: ["NSString": .uid(builder.add("text")), "NSAttributes": .uid(attributes), "NSAttributeInfo": .uid(builder.add(.data([4, 1])))])
            }
        },
        Case(rule: "NSAttributedString attribute name is data", code: "archive.shape_mismatch", key: "NSAttributes") {
            HandBuilt.root { builder in
                let attributes = builder.dictionary(keys: [builder.add(.data([1]))], values: [builder.add("v")])
                return builder.object(class: builder.classRecord("NSAttributedString"),
                                      fields: ["NSString": .uid(builder.add("text")), "NSAttributes": .uid(attributes)])
            }
        },
        Case(rule: "NSTimeZone NS.data is inline", code: "archive.shape_mismatch", key: "NS.data") {
            root("NSTimeZone") { builder in ["NS.name": .uid(builder.add("Europe/Paris")), "NS.data": .data([1])] }
        },
        Case(rule: "NSTimeZone has no NS.data", code: "archive.missing_field", key: "NS.data") {
            root("NSTimeZone") { builder in ["NS.name": .uid(builder.add("Europe/Paris"))] }
        },
        Case(rule: "NSValue size is an inline string", code: "archive.invalid_value", key: "NS.special") {
            HandBuilt.object("NSValue", ["NS.special": 2, "NS.sizeval": "{3, 4.25}"])
        },
        Case(rule: "NSIndexSet NSRangeData is inline", code: "archive.shape_mismatch", key: "NSRangeData") {
            HandBuilt.object("NSIndexSet", ["NSRangeCount": 1, "NSRangeData": .data([1, 2])])
        },
        Case(rule: "NSNumber as an instance dictionary", code: "archive.shape_mismatch") { HandBuilt.object("NSNumber", ["NS.intval": 3]) },
        Case(rule: "NSSet with NS.object.N fields", code: "archive.shape_mismatch") {
            root("NSSet") { builder in ["NS.object.0": .uid(builder.add("a"))] }
        },
        // Oracle `--seed 3 --only 6599`: corelibs refuses the inline number; no archiver writes one of each.
        Case(rule: "NSValue range with one inline and one referenced number", code: "archive.shape_mismatch", key: "NS.rangeval.length") {
            root("NSValue") { builder in ["NS.special": 4, "NS.rangeval.location": .uid(builder.add(239)), "NS.rangeval.length": 384] }
        },
        Case(rule: "NSValue range with both numbers inline (oracle --seed 5 --only 8996)", code: "archive.shape_mismatch", key: "NS.rangeval.location") {
            root("NSValue") { _ in ["NS.special": 4, "NS.rangeval.location": 7, "NS.rangeval.length": 0] }
        },
        Case(rule: "NSValue without NS.special or an ObjC type", code: "archive.missing_field", key: "NS.special") {
            root("NSValue") { builder in ["NS.sizeval": .uid(builder.add("{3.0, 4.25}"))] }
        },
        Case(rule: "NSIndexSet NSRangeData has bytes left over", code: "archive.invalid_value") {
            root("NSMutableIndexSet") { builder in ["NSRangeCount": 1, "NSRangeData": .uid(builder.add(.data([1, 2, 3])))] }
        },
        Case(rule: "NSDecimalNumber mantissa is not 16 bytes", code: "archive.invalid_value") {
            HandBuilt.object("NSDecimalNumber", ["NS.exponent": 0, "NS.length": 1, "NS.negative": false, "NS.mantissa": .data([5, 0])])
        },
        Case(rule: "NSAttributedString has no NSString", code: "archive.missing_field", key: "NSString") {
            HandBuilt.object("NSAttributedString", [:])
        },
        Case(rule: "NSAttributedString NSAttributes array holds a string", code: "archive.shape_mismatch", key: "NSAttributes") {
            HandBuilt.root { builder in
                let attributes = builder.array(of: [builder.add("not a dictionary")])
                return builder.object(class: builder.classRecord("NSAttributedString"),
                                      fields: ["NSString": .uid(builder.add("text")), "NSAttributes": .uid(attributes)])
            }
        },
        Case(rule: "NSOrderedSet NS.object.0 is inline", code: "archive.shape_mismatch") {
            HandBuilt.object("NSOrderedSet", ["NS.object.0": 1])
        },
        Case(rule: "NSOrderedSet NS.object.0 is $null", code: "archive.null_element", key: "NS.objects") {
            HandBuilt.object("NSOrderedSet", ["NS.object.0": .uid(0)])
        },
        Case(rule: "NSValue of an unknown kind", code: "archive.invalid_value", key: "NS.special") {
            HandBuilt.object("NSValue", ["NS.special": 99, "NS.bytes": .data([1])])
        },
        Case(rule: "NSValue point with one number", code: "archive.invalid_value", key: "NS.special") {
            root("NSValue") { builder in ["NS.special": 1, "NS.pointval": .uid(builder.add("{1}"))] }
        },
        Case(rule: "NSDecimalNumber with 9 mantissa words", code: "archive.invalid_value") {
            HandBuilt.decimal(mantissa: 1, exponent: 0, negative: false, length: 9)
        },
        Case(rule: "NSIndexSet without NSRangeCount", code: "archive.invalid_value") { HandBuilt.object("NSIndexSet", [:]) },
        Case(rule: "NSIndexSet range ending past NSNotFound (oracle --seed 7 --only 399311)", code: "archive.invalid_value") {
            HandBuilt.object("NSIndexSet", ["NSRangeCount": 1, "NSLocation": .integer(Int128(Int64.max)), "NSLength": 2])
        },
        // Nested: the pointer is the object's place in the plain JSON.
        Case(rule: "a malformed NSString inside an array", code: "archive.shape_mismatch", path: "/root/1", key: "NS.string") {
            HandBuilt.root { builder in
                let bad = builder.object(class: builder.classRecord("NSString"), fields: ["NS.string": 5])
                return builder.array(of: [builder.add("ok"), bad])
            }
        },
        Case(rule: "a malformed NSUUID as a dictionary value", code: "archive.length_mismatch", path: "/root/id", key: "NS.uuidbytes") {
            HandBuilt.root { builder in
                let bad = builder.object(class: builder.classRecord("NSUUID"), fields: ["NS.uuidbytes": .data([1, 2])])
                return builder.dictionary(keys: [builder.add("id")], values: [bad])
            }
        },
    ]

    @Test(arguments: cases)
    func foundationPolicyRejects(_ example: Case) throws {
        let report = try Inspect.report(example.bytes(), policy: .foundation)
        #expect(!report.valid)
        #expect(report.violations.first?.code.rawValue == example.code)
        #expect(report.violations.first?.path == example.path)
        #expect(report.violations.first?.key == example.key)
        #expect(try Inspect.json(example.bytes(), policy: .foundation) == nil)
    }

    @Test(arguments: cases)
    func redactNullsTheObject(_ example: Case) throws {
        let json = try #require(try Inspect.json(example.bytes(), policy: Self.redact))
        let document = try #require(CanonicalJSON.parse(json))
        #expect(Self.node(at: example.path, in: document) == .scalar("null"), "\(json)")
    }

    /// The node a JSON pointer (unescaped tokens only) names.
    static func node(at pointer: String, in document: CanonicalJSON.Node) -> CanonicalJSON.Node? {
        var node = document
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            switch node {
            case .object(let members):
                guard let member = members.first(where: { $0.key == String(token) || $0.key == "\"\(token)\"" }) else { return nil }
                node = member.value
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                node = elements[index]
            case .scalar:
                return nil
            }
        }
        return node
    }

    @Test(arguments: cases)
    func inspectionRendersButIsNotValid(_ example: Case) throws {
        let inspection = try ArchiveInspector(policy: .inspection).convert(example.bytes(), mode: .plain)
        #expect(!inspection.report.valid)
        #expect(inspection.report.violations.first?.code.rawValue == example.code)
        #expect(inspection.json != nil)
    }

    // MARK: - The issue's examples

    @Test func nsStringWithAnIntegerIsNotValid() throws {
        let bytes = HandBuilt.object("NSString", ["NS.string": 5])
        #expect(try Inspect.json(bytes) == #"{"root":{"$class":"NSString","NS.string":5}}"#)
        #expect(try Inspect.report(bytes, policy: .foundation).valid == false)
    }

    @Test func nsUUIDWithTwoBytesIsNotValid() throws {
        let bytes = HandBuilt.object("NSUUID", ["NS.uuidbytes": .data([1, 2])])
        #expect(try Inspect.json(bytes) == #"{"root":{"$class":"NSUUID","NS.uuidbytes":"AQI="}}"#)
        #expect(try Inspect.report(bytes, policy: .foundation).valid == false)
    }

    /// NSURL keeps a `..` that climbs above the root; RFC 3986 resolution would drop it.
    @Test func relativeURLsResolveAsNSURLDoes() throws {
        let bytes = HandBuilt.root { builder in
            let record = builder.classRecord("NSURL")
            let base = builder.object(class: record, fields: ["NS.base": .uid(0), "NS.relative": .uid(builder.add("https://h.example/p"))])
            return builder.object(class: record, fields: ["NS.base": .uid(base), "NS.relative": .uid(builder.add("../d"))])
        }
        #expect(try Inspect.json(bytes, policy: .foundation) == #"{"root":"https://h.example/../d"}"#)
    }

    /// Oracle round 2b: a base NSURL whose NS.relative is empty made the resolution trap (bridging
    /// the NSURL to URL); now the URL built on it is refused.
    @Test func anEmptyBaseURLIsRefusedNotATrap() throws {
        let bytes = HandBuilt.root { builder in
            let record = builder.classRecord("NSURL")
            let base = builder.object(class: record, fields: ["NS.base": .uid(0), "NS.relative": .uid(builder.add(""))])
            return builder.object(class: record, fields: ["NS.base": .uid(base), "NS.relative": .uid(builder.add("?x=1"))])
        }
        let report = try Inspect.report(bytes, policy: .foundation)
        #expect(report.violations.map(\.code.rawValue) == ["archive.invalid_value"])
        #expect(try Inspect.json(bytes, policy: .foundation) == nil)
        #expect(try Inspect.json(bytes) != nil)
    }

    /// An attributed string whose attribute dictionary holds the attributed string: no decoder
    /// can build it (corelibs recurses without end), whatever the policy.
    @Test func aCycleOfFoundationValueObjectsIsRefused() {
        let bytes = HandBuilt.root { builder in
            let text = builder.reserve()
            let attributes = builder.dictionary(keys: [builder.add("self")], values: [text])
            builder.set(text, to: .dictionary(["$class": .uid(builder.classRecord("NSAttributedString")),
                                               "NSString": .uid(builder.add("t")), "NSAttributes": .uid(attributes)]))
            return text
        }
        #expect(Inspect.errorCode(bytes, policy: .foundation) == "archive.collection_cycle")
        #expect(Inspect.errorCode(bytes) == "archive.collection_cycle")
    }

    @Test(arguments: [Int128(10_000), 18, 0, -1, 100_001])
    func versionsOtherThan100000AreRefused(_ version: Int128) {
        let bytes = BinaryPropertyListWriter.write(.dictionary([
            "$version": .integer(version), "$archiver": "NSKeyedArchiver", "$top": .dictionary([:]), "$objects": ["$null"],
        ]))
        #expect(Inspect.errorCode(bytes) == "archive.invalid_version")
    }

    @Test func wellFormedFoundationObjectsHaveNoShapeProblems() throws {
        let bytes = HandBuilt.root { builder in
            let set = builder.array(of: [builder.add("a"), builder.add("b"), builder.add(1),
                                         builder.array(of: [builder.add("a")]), builder.array(of: [builder.add("a"), builder.add("b")]),
                                         builder.array(of: [builder.add("b")])], className: "NSSet")
            let zone = builder.object(class: builder.classRecord("NSTimeZone"),
                                      fields: ["NS.name": .uid(builder.add("Europe/Paris")), "NS.data": .uid(builder.add(.data([0])))])
            let uuid = builder.object(class: builder.classRecord("NSUUID"), fields: ["NS.uuidbytes": .data(Array(repeating: 7, count: 16))])
            return builder.dictionary(keys: [builder.add("set"), builder.add("zone"), builder.add("uuid")], values: [set, zone, uuid])
        }
        let report = try Inspect.report(bytes, policy: .foundation)
        #expect(report.valid, "\(report.violations)")
    }
}
