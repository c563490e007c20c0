import Foundation
import Testing
@testable import ArchiveGateCore

/// The second batch of issue 20's classes: each on a fixture Foundation's own `NSKeyedArchiver`
/// writes (binary and XML) where corelibs can, with its plain JSON, its policy group, and the shape
/// rules that refuse what Foundation would not decode.
@Suite struct ForensicValueClassTests {
    // MARK: NSIndexPath

    @Test(arguments: [([Int](), "[]"), ([4], "[4]"), ([1, 200, 3, 70_000], "[1,200,3,70000]")])
    func indexPathRendersItsIndexes(_ example: (indexes: [Int], json: String)) throws {
        let path = example.indexes.withUnsafeBufferPointer { NSIndexPath(indexes: $0.baseAddress, length: $0.count) }
        try expectFoundationPlain(path, #"{"root":\#(example.json)}"#, policy: .foundation)
    }

    @Test func theFoundationGroupAdmitsIndexPaths() {
        #expect(Policy.foundationGroup.contains("NSIndexPath"))
    }

    // MARK: NSMeasurement, NSUnit, NSUnitConverterLinear

    @Test func measurementRendersItsValueAndUnit() throws {
        try expectFoundationPlain(NSMeasurement(doubleValue: 5.5, unit: UnitLength.kilometers), #"""
            {"root":{"value":5.5,"unit":{"symbol":"km","converter":{"coefficient":1000,"constant":0}}}}
            """#, policy: .foundation)
    }

    @Test func aPlainUnitHasNoConverter() throws {
        try expectFoundationPlain(NSMeasurement(doubleValue: 2, unit: Unit(symbol: "apples")), #"""
            {"root":{"value":2,"unit":{"symbol":"apples","converter":null}}}
            """#, policy: .foundation)
    }

    @Test func theFoundationGroupAdmitsMeasurementsAndTheirUnits() {
        #expect(Policy.foundationGroup.isSuperset(of: ["NSMeasurement", "NSUnit", "NSUnitLength", "NSUnitTemperature", "NSUnitConverterLinear"]))
        #expect(!Policy.foundationGroup.contains("NSUnitConverterReciprocal"))
    }

    static func root(_ name: String, _ fields: @escaping (inout KeyedArchiveBuilder) -> KeyValuePairs<String, PropertyListValue>) -> [UInt8] {
        KeyedArchiveShapeCheckTests.root(name, fields)
    }

    static let cases: [KeyedArchiveShapeCheckTests.Case] = [
        .init(rule: "NSIndexPath without NSIndexPathLength", code: "archive.missing_field", key: "NSIndexPathLength") {
            HandBuilt.object("NSIndexPath", ["NSIndexPathValue": .integer(1)])
        },
        .init(rule: "NSIndexPath length 1 without NSIndexPathValue", code: "archive.invalid_value") {
            HandBuilt.object("NSIndexPath", ["NSIndexPathLength": .integer(1)])
        },
        .init(rule: "NSIndexPath negative length", code: "archive.invalid_value") {
            HandBuilt.object("NSIndexPath", ["NSIndexPathLength": .integer(-1)])
        },
        .init(rule: "NSIndexPath NSIndexPathData inline", code: "archive.invalid_value") {
            HandBuilt.object("NSIndexPath", ["NSIndexPathLength": .integer(2), "NSIndexPathData": .data([1, 2])])
        },
        .init(rule: "NSIndexPath data with fewer indexes than the length", code: "archive.invalid_value") {
            root("NSIndexPath") { builder in ["NSIndexPathLength": .integer(3), "NSIndexPathData": .uid(builder.add(.data([1, 2])))] }
        },
        .init(rule: "NSIndexPath data with a byte left over", code: "archive.invalid_value") {
            root("NSIndexPath") { builder in ["NSIndexPathLength": .integer(2), "NSIndexPathData": .uid(builder.add(.data([1, 2, 0x80])))] }
        },
        .init(rule: "NSIndexPath index past Int.max", code: "archive.invalid_value") {
            root("NSIndexPath") { builder in
                ["NSIndexPathLength": .integer(2),
                 "NSIndexPathData": .uid(builder.add(.data([1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])))]
            }
        },
        .init(rule: "NSIndexPath NSIndexPathData is a string", code: "archive.invalid_value") {
            root("NSIndexPath") { builder in ["NSIndexPathLength": .integer(2), "NSIndexPathData": .uid(builder.add(.string("12")))] }
        },
        .init(rule: "NSMeasurement without NS.value", code: "archive.missing_field", key: "NS.value") {
            root("NSMeasurement") { builder in ["NS.unit": .uid(unit(&builder, "NSUnit"))] }
        },
        .init(rule: "NSMeasurement NS.unit is $null", code: "archive.missing_field", key: "NS.unit") {
            HandBuilt.object("NSMeasurement", ["NS.value": .real(1), "NS.unit": .uid(0)])
        },
        .init(rule: "NSMeasurement NS.unit is a string", code: "policy.class_mismatch", path: "/root/unit") {
            root("NSMeasurement") { builder in ["NS.value": .real(1), "NS.unit": .uid(builder.add(.string("km")))] }
        },
        .init(rule: "NSUnitLength without NS.converter", code: "archive.missing_field", path: "/root/unit", key: "NS.converter") {
            root("NSMeasurement") { builder in ["NS.value": .real(1), "NS.unit": .uid(unit(&builder, "NSUnitLength"))] }
        },
        .init(rule: "NSUnit with an NS.converter", code: "archive.invalid_value", path: "/root/unit", key: "NS.converter") {
            root("NSMeasurement") { builder in
                let converter = linear(&builder, ["NS.coefficient": .real(1), "NS.constant": .real(0)])
                return ["NS.value": .real(1), "NS.unit": .uid(unit(&builder, "NSUnit", converter: converter))]
            }
        },
        .init(rule: "NSUnitConverterLinear without NS.constant", code: "archive.missing_field", path: "/root/unit/converter", key: "NS.constant") {
            root("NSMeasurement") { builder in
                let converter = linear(&builder, ["NS.coefficient": .real(1)])
                return ["NS.value": .real(1), "NS.unit": .uid(unit(&builder, "NSUnitMass", converter: converter))]
            }
        },
        .init(rule: "NSUnit NS.symbol is inline", code: "archive.shape_mismatch", key: "NS.symbol") {
            HandBuilt.object("NSUnit", ["NS.symbol": .string("kg")])
        },
    ]

    static func unit(_ builder: inout KeyedArchiveBuilder, _ name: String, converter: UInt32? = nil) -> UInt32 {
        let symbol = builder.add(.string("u"))
        let record = builder.classRecord(name)
        if let converter { return builder.object(class: record, fields: ["NS.symbol": .uid(symbol), "NS.converter": .uid(converter)]) }
        return builder.object(class: record, fields: ["NS.symbol": .uid(symbol)])
    }

    static func linear(_ builder: inout KeyedArchiveBuilder, _ fields: KeyValuePairs<String, PropertyListValue>) -> UInt32 {
        builder.object(class: builder.classRecord("NSUnitConverterLinear"), fields: fields)
    }

    @Test(arguments: cases)
    func foundationPolicyRejects(_ example: KeyedArchiveShapeCheckTests.Case) throws {
        let report = try Inspect.report(example.bytes(), policy: .foundation)
        #expect(!report.valid)
        #expect(report.violations.first?.code.rawValue == example.code, "\(report.violations)")
        #expect(report.violations.first?.path == example.path)
        if example.key != nil { #expect(report.violations.first?.key == example.key) }
    }
}
