import Testing
@testable import ArchiveGateCore

/// Issue 36: thirteen ways `valid` differed from what Foundation's `NSKeyedUnarchiver` decodes,
/// each found by the differential oracle's families (docs/RELIABILITY.md). A verdict follows what
/// Foundation's decoder reads; the plain JSON shows the value Foundation produces.
@Suite struct FoundationReadsTests {
    /// The shape-check suite's table row: rule, code, pointer, key, archive.
    typealias Case = KeyedArchiveShapeCheckTests.Case

    static func root(_ name: String, _ fields: @escaping (inout KeyedArchiveBuilder) -> KeyValuePairs<String, PropertyListValue>) -> [UInt8] {
        KeyedArchiveShapeCheckTests.root(name, fields)
    }

    /// An archive with `$top` exactly `top` and `$objects` `objects`.
    static func archive(top: KeyValuePairs<String, PropertyListValue>, objects: [PropertyListValue]) -> [UInt8] {
        BinaryPropertyListWriter.write(.dictionary([
            "$version": 100_000, "$archiver": "NSKeyedArchiver", "$top": .dictionary(top.map { .init(key: $0.key, value: $0.value) }),
            "$objects": .array(objects),
        ]))
    }

    static func date(_ builder: inout KeyedArchiveBuilder, _ seconds: Double) -> UInt32 {
        builder.object(class: builder.classRecord("NSDate"), fields: ["NS.time": .real(seconds)])
    }

    static func scalarValue(_ type: String, _ value: PropertyListValue, extra: [PropertyListValue.Entry] = []) -> [UInt8] {
        HandBuilt.root { builder in
            let typeUID = builder.add(.string(type))
            let record = builder.classRecord("NSValue")
            return builder.object(class: record, entries: [.init(key: "$0", value: .uid(typeUID)), .init(key: "$1", value: value)] + extra)
        }
    }

    static let cases: [Case] = [
        // 1. A referenced "$null" string other than $objects[0] is nil to Foundation.
        Case(rule: "1: NSArray element is a \"$null\" string at UID 2", code: "archive.null_element", key: "NS.objects") {
            archive(top: ["root": .uid(1)], objects: [
                "$null", .dictionary(["$class": .uid(3), "NS.objects": [.uid(2)]]), "$null",
                .dictionary(["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]),
            ])
        },
        Case(rule: "1: NSURL NS.relative is a \"$null\" string", code: "archive.missing_field", key: "NS.relative") {
            root("NSURL") { builder in ["NS.base": .uid(0), "NS.relative": .uid(builder.add("$null"))] }
        },
        // 2. NSString reads NS.string and NS.bytes raw.
        Case(rule: "2: NSString NS.string is a reference", code: "archive.shape_mismatch", key: "NS.string") {
            root("NSString") { builder in ["NS.string": .uid(builder.add("text"))] }
        },
        Case(rule: "2: NSString NS.bytes is a reference", code: "archive.shape_mismatch", key: "NS.bytes") {
            root("NSMutableString") { builder in ["NS.bytes": .uid(builder.add(.data([0x61])))] }
        },
        // 3. NSUUID reads NS.uuidbytes raw.
        Case(rule: "3: NSUUID NS.uuidbytes is a reference", code: "archive.shape_mismatch", key: "NS.uuidbytes") {
            root("NSUUID") { builder in ["NS.uuidbytes": .uid(builder.add(.data(Array(repeating: 7, count: 16))))] }
        },
        // 4. NSDate within the years 0001–9999.
        Case(rule: "4: NSDate NS.time is 1e300", code: "archive.invalid_value", key: "NS.time") {
            HandBuilt.object("NSDate", ["NS.time": .real(1e300)])
        },
        Case(rule: "4: NSDate NS.time is before the year 0000", code: "archive.invalid_value", key: "NS.time") {
            HandBuilt.object("NSDate", ["NS.time": .integer(-70_000_000_000)])
        },
        // 5. Scalar NSValue: $1 checked against $0, nothing else read.
        Case(rule: "5: NSValue 'c' holds 300", code: "archive.shape_mismatch", key: "$1") { scalarValue("c", 300) },
        Case(rule: "5: NSValue 'i' holds 2.5", code: "archive.shape_mismatch", key: "$1") { scalarValue("i", .real(2.5)) },
        Case(rule: "5: NSValue 'f' holds 0.1", code: "archive.shape_mismatch", key: "$1") { scalarValue("f", .real(0.1)) },
        Case(rule: "5: NSValue 'B' holds 1", code: "archive.shape_mismatch", key: "$1") { scalarValue("B", 1) },
        Case(rule: "5: NSValue 'i' holds a reference", code: "archive.shape_mismatch", key: "$1") {
            HandBuilt.root { builder in
                let type = builder.add("i"), number = builder.add(5)
                return builder.object(class: builder.classRecord("NSValue"), fields: ["$0": .uid(type), "$1": .uid(number)])
            }
        },
        Case(rule: "5: NSValue 's' (corelibs traps)", code: "archive.invalid_value", key: "$0") { scalarValue("s", 5) },
        Case(rule: "5: NSValue '{CGPoint=dd}' with a scalar", code: "archive.invalid_value", key: "$0") { scalarValue("{CGPoint=dd}", 5) },
        Case(rule: "5: NSValue with a field besides $0 and $1", code: "archive.shape_mismatch", key: "extra") {
            scalarValue("i", 5, extra: [.init(key: "extra", value: 1)])
        },
        // 6. NSIndexSet reads NSRangeCount, NSLocation, NSLength raw.
        Case(rule: "6: NSIndexSet NSLocation is a reference", code: "archive.invalid_value") {
            root("NSIndexSet") { builder in ["NSRangeCount": 1, "NSLocation": .uid(builder.add(5)), "NSLength": 2] }
        },
        Case(rule: "6: NSIndexSet NSRangeCount is a reference", code: "archive.invalid_value") {
            root("NSIndexSet") { builder in ["NSRangeCount": .uid(builder.add(1)), "NSLocation": 5, "NSLength": 2] }
        },
        // 7–9. Inline $top values.
        Case(rule: "7: $top root is an inline integer", code: "archive.shape_mismatch", path: "/root", key: "root") {
            archive(top: ["root": 5], objects: ["$null"])
        },
        Case(rule: "7: $top root is inline data", code: "archive.shape_mismatch", path: "/root", key: "root") {
            archive(top: ["root": .data([1])], objects: ["$null"])
        },
        Case(rule: "8: $top holds an inline string beside root", code: "archive.shape_mismatch", path: "/note", key: "note") {
            archive(top: ["root": .uid(1), "note": "text"], objects: ["$null", "r"])
        },
        Case(rule: "9: $top holds an integer beyond Int64", code: "archive.invalid_value", path: "/big", key: "big") {
            archive(top: ["root": .uid(1), "big": .integer(1 << 70)], objects: ["$null", "r"])
        },
        // 12. A URL string `URL` refuses.
        Case(rule: "12: NSURL http://[::1 (unterminated IPv6 literal)", code: "archive.invalid_value", key: "NS.relative") {
            root("NSURL") { builder in ["NS.base": .uid(0), "NS.relative": .uid(builder.add("http://[::1"))] }
        },
        // 13. NSDateInterval with both ends, in order.
        Case(rule: "13: NSDateInterval end is $null", code: "archive.missing_field", key: "NS.endDate") {
            root("NSDateInterval") { builder in ["NS.startDate": .uid(date(&builder, 0)), "NS.endDate": .uid(0)] }
        },
        Case(rule: "13: NSDateInterval start is a \"$null\" string", code: "archive.missing_field", key: "NS.startDate") {
            root("NSDateInterval") { builder in ["NS.startDate": .uid(builder.add("$null")), "NS.endDate": .uid(date(&builder, 0))] }
        },
        Case(rule: "13: NSDateInterval ends before it starts", code: "archive.invalid_value", key: "NS.endDate") {
            root("NSDateInterval") { builder in ["NS.startDate": .uid(date(&builder, 100)), "NS.endDate": .uid(date(&builder, 50))] }
        },
    ]

    @Test(arguments: cases)
    func foundationPolicyRefuses(_ example: Case) throws {
        let report = try Inspect.report(example.bytes(), policy: .foundation)
        #expect(!report.valid)
        #expect(report.violations.first?.code.rawValue == example.code)
        #expect(report.violations.first?.path == example.path)
        #expect(report.violations.first?.key == example.key)
    }

    /// Where the archive holds more than Foundation decodes, it is still shown for inspection.
    @Test(arguments: cases)
    func inspectionStillRenders(_ example: Case) throws {
        let inspection = try ArchiveInspector(policy: .inspection).convert(example.bytes(), mode: .plain)
        #expect(!inspection.report.valid)
        #expect(inspection.json != nil)
    }

    // MARK: - Values as Foundation decodes them

    /// 1: an optional field referencing a "$null" string is nil, as Foundation decodes it.
    @Test func nullStringIsNil() throws {
        let bytes = Self.root("NSError") { builder in
            ["NSDomain": .uid(builder.add("d")), "NSCode": 3, "NSUserInfo": .uid(builder.add("$null"))]
        }
        #expect(try Inspect.report(bytes, policy: .foundation).valid)
        #expect(try Inspect.json(bytes, policy: .foundation) == #"{"root":{"domain":"d","code":3,"userInfo":null}}"#)
        // A "$null" string that nothing references is an ordinary unreferenced entry.
        let root = Self.archive(top: ["root": .uid(1)], objects: ["$null", "r", "$null"])
        #expect(try Inspect.json(root, policy: .foundation) == #"{"root":"r"}"#)
    }

    /// 5: a scalar NSValue Foundation decodes renders its type and value.
    @Test(arguments: [("c", PropertyListValue.integer(-5), "-5"), ("Q", .integer(Int128(UInt64.max)), "18446744073709551615"),
                      ("f", .real(1.5), "1.5"), ("d", .integer(3), "3"), ("B", .bool(true), "true")])
    func scalarValueRenders(_ type: String, _ value: PropertyListValue, _ text: String) throws {
        let bytes = Self.scalarValue(type, value)
        #expect(try Inspect.report(bytes, policy: .foundation).valid)
        #expect(try Inspect.json(bytes, policy: .foundation) == #"{"root":{"$class":"NSValue","$0":"\#(type)","$1":\#(text)}}"#)
    }

    /// 6: an empty range is the empty set.
    @Test func emptySingleRangeIsEmpty() throws {
        let bytes = HandBuilt.object("NSIndexSet", ["NSRangeCount": 1, "NSLocation": 5, "NSLength": 0])
        #expect(try Inspect.report(bytes, policy: .foundation).valid)
        #expect(try Inspect.json(bytes, policy: .foundation) == #"{"root":[]}"#)
    }

    /// 9: inline bool, integer, real and data beside root are what decodeBool/Int64/Double/Bytes read.
    @Test func decodableInlineTopValuesStayValid() throws {
        let bytes = Self.archive(top: ["root": .uid(1), "flag": true, "count": .integer(Int128(Int64.min)), "ratio": 2.5, "blob": .data([1])],
                                 objects: ["$null", "r"])
        #expect(try Inspect.report(bytes, policy: .foundation).valid)
    }

    /// 10: an integer beyond 2^53 where Foundation reads a double renders as that double.
    @Test func doubleFieldRendersTheDouble() throws {
        let bytes = HandBuilt.root { builder in
            let converter = builder.object(class: builder.classRecord("NSUnitConverterLinear"), fields: ["NS.coefficient": 1, "NS.constant": 0])
            let unit = builder.object(class: builder.classRecord("NSUnitLength"), fields: ["NS.symbol": .uid(builder.add("m")), "NS.converter": .uid(converter)])
            return builder.object(class: builder.classRecord("NSMeasurement"), fields: ["NS.value": .integer((1 << 53) + 1), "NS.unit": .uid(unit)])
        }
        #expect(try Inspect.report(bytes, policy: .foundation).valid)
        let json = try #require(try Inspect.json(bytes, policy: .foundation))
        let value = try #require(json.split(separator: ",").first?.split(separator: ":").last)
        #expect(Double(value) == 9_007_199_254_740_992, "\(json)")
    }

    /// 11: a time zone renders under the name Foundation decodes it to (corelibs: UTC is GMT).
    @Test(arguments: [("UTC", "GMT"), ("GMT+8", "GMT+0800"), ("Europe/Paris", "Europe/Paris")])
    func timeZoneNameAsFoundationDecodesIt(_ archived: String, _ decoded: String) throws {
        let bytes = Self.root("NSTimeZone") { builder in ["NS.name": .uid(builder.add(.string(archived))), "NS.data": .uid(0)] }
        #expect(try Inspect.report(bytes, policy: .foundation).valid)
        #if canImport(Darwin)
        // Apple's canonical names are not asserted here (docs/RELIABILITY.md, "Time-zone names").
        #else
        #expect(try Inspect.json(bytes, policy: .foundation) == #"{"root":"\#(decoded)"}"#)
        #endif
    }
}
