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

    // MARK: NSAffineTransform

    /// `NSTransformStruct` as Apple's Foundation writes it: big-endian float32s, after `tag` if any.
    static func transformStruct(_ floats: [Float], tag: UInt8? = nil) -> PropertyListValue {
        var bytes: [UInt8] = tag.map { [$0] } ?? []
        for value in floats { withUnsafeBytes(of: value.bitPattern.bigEndian) { bytes.append(contentsOf: $0) } }
        return .data(bytes)
    }

    /// Hand-built: corelibs writes its own `$0` layout, which Apple's decoder ignores. The field
    /// name, lengths and tags are those of `-[NSAffineTransform encodeWithCoder:]` in Apple's
    /// Foundation (iOS 26.1 Foundation.framework, decompiled: keyed coding writes only
    /// `NSTransformStruct`, via `encodeBytes:length:forKey:`).
    @Test(arguments: [
        (transformStruct([2, 0.5, -1, 3, 10, -20.25]), #"{"m11":2,"m12":0.5,"m21":-1,"m22":3,"tX":10,"tY":-20.25}"#),
        (transformStruct([2, 3, 10, -20]), #"{"m11":2,"m12":0,"m21":0,"m22":3,"tX":10,"tY":-20}"#),
        (transformStruct([10, -20], tag: 1), #"{"m11":1,"m12":0,"m21":0,"m22":1,"tX":10,"tY":-20}"#),
        (transformStruct([2, 3], tag: 2), #"{"m11":2,"m12":0,"m21":0,"m22":3,"tX":0,"tY":0}"#),
        (.data([]), #"{"m11":1,"m12":0,"m21":0,"m22":1,"tX":0,"tY":0}"#),
    ])
    func affineTransformRendersItsMatrix(_ example: (field: PropertyListValue, json: String)) throws {
        let bytes = HandBuilt.object("NSAffineTransform", ["NSTransformStruct": example.field])
        #expect(try Inspect.json(bytes, policy: .foundation) == #"{"root":\#(example.json)}"#)
    }

    @Test func anAffineTransformWithoutBytesIsTheIdentity() throws {
        #expect(try Inspect.json(HandBuilt.object("NSAffineTransform", [:]), policy: .foundation)
            == #"{"root":{"m11":1,"m12":0,"m21":0,"m22":1,"tX":0,"tY":0}}"#)
    }

    /// A real archive from the nskeyedunarchiver crate's test resources (corpus SOURCES.md), in
    /// Apple's NSTransformStruct layout, which corelibs cannot write: a rotation, all 24 bytes.
    @Test(.enabled(if: SharedMaterial.hasCorpus, Comment(rawValue: SharedMaterial.corpusAbsent)))
    func anAppleWrittenTransformRenders() throws {
        let bytes = try Array(Data(contentsOf: SharedMaterial.corpus.appendingPathComponent("nskeyedunarchiver-rs/NSAffineTransform.plist")))
        #expect(try Inspect.json(bytes, policy: .foundation) == #"""
            {"root":{"m11":0.9636304378509521,"m12":0.2672383785247803,"m21":-0.2672383785247803,"m22":0.9636304378509521,"tX":0,"tY":0}}
            """#)
    }

    /// corelibs' own archive of a transform (`$0` → `_NSKeyedCoderOldStyleArray`) reads as the
    /// identity on Apple's Foundation: refused rather than shown as a matrix nobody decodes.
    @Test func corelibsLayoutIsRefused() throws {
        let transform = NSAffineTransform()
        transform.translateX(by: 10, yBy: 20)
        let report = try Inspect.report(FoundationFixture.archive(transform, as: .binary), policy: .foundation)
        #expect(!report.valid)
        #expect(report.violations.first?.code.rawValue == "archive.shape_mismatch")
        #expect(report.violations.first?.key == "$0")
    }

    // MARK: UIColor, NSColor (group uikit-values)

    static let uikit = Inspect.policy(#"{"allow": ["foundation", "uikit-values"]}"#)

    /// Hand-built (corelibs has no UIKit) with the fields UIKitCore's `-[UIColor encodeWithCoder:]`
    /// writes (iOS 26.1, decompiled): `UIColorComponentCount`, `UIRed`/`UIGreen`/`UIBlue`/`UIAlpha`
    /// (or `UIWhite`/`UIAlpha`), `NSRGB`/`NSWhite` text, `NSColorSpace` 2 or 4, `UISystemColorName`.
    static let rgbColor: [UInt8] = HandBuilt.root { builder in
        let name = builder.add(.string("systemRedColor"))
        return builder.object(class: builder.classRecord("UIColor"), fields: [
            "UISystemColorName": .uid(name), "UIColorComponentCount": .integer(4),
            "UIRed": .real(1), "UIGreen": .real(0.23137255012989044), "UIBlue": .real(0.1882352977991104), "UIAlpha": .real(1),
            "NSRGB": .data(Array("1 0.231 0.188".utf8)), "NSColorSpace": .integer(2),
        ])
    }

    @Test func uiColorRendersItsSpaceComponentsAndSystemName() throws {
        #expect(try Inspect.json(Self.rgbColor, policy: Self.uikit) == #"""
            {"root":{"colorSpace":"deviceRGB","red":1,"green":0.23137255012989044,"blue":0.1882352977991104,"alpha":1,"systemName":"systemRedColor"}}
            """#)
    }

    @Test func aWhiteUIColorPrefersTheDoubleTwin() throws {
        let bytes = HandBuilt.object("UIColor", [
            "UIColorComponentCount": .integer(2), "UIWhite": .real(0.3), "UIWhite-Double": .real(0.3333333333333333),
            "UIAlpha": .real(0.5), "NSWhite": .data(Array("0.333 0.5".utf8)), "NSColorSpace": .integer(4),
        ])
        #expect(try Inspect.json(bytes, policy: Self.uikit) == #"{"root":{"colorSpace":"deviceWhite","white":0.3333333333333333,"alpha":0.5}}"#)
    }

    /// AppKit's NSColor has only the text (NUL-terminated), and calibrated spaces.
    @Test func anNSColorIsReadFromItsText() throws {
        let bytes = HandBuilt.object("NSColor", ["NSColorSpace": .integer(1), "NSRGB": .data(Array("0.5 0.25 1\0".utf8))])
        #expect(try Inspect.json(bytes, policy: Self.uikit) == #"{"root":{"colorSpace":"calibratedRGB","red":0.5,"green":0.25,"blue":1,"alpha":1}}"#)
    }

    @Test func colorsAreNotInTheFoundationGroup() throws {
        #expect(!Policy.foundationGroup.contains("UIColor"))
        #expect(Policy.namedGroups["uikit-values"] == ["UIColor", "NSColor", "UIFont", "NSFont", "NSParagraphStyle", "NSMutableParagraphStyle"])
        let report = try Inspect.report(Self.rgbColor, policy: .foundation)
        #expect(report.violations.first?.code.rawValue == "policy.class_not_allowed")
    }

    // MARK: NSDateComponents, NSCalendar

    @Test func dateComponentsRenderEveryComponentWithNullForUndefinedOnes() throws {
        var components = DateComponents()
        components.year = 2024
        components.month = 3
        components.day = 15
        components.hour = 10
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(identifier: "Europe/Paris")
        try expectFoundationPlain(components as NSDateComponents, #"""
            {"root":{"calendar":"gregorian","timeZone":"Europe/Paris","era":null,"year":2024,"quarter":null,"month":3,"day":15,"hour":10,"minute":null,"second":null,"nanosecond":null,"weekOfYear":null,"weekOfMonth":null,"yearForWeekOfYear":null,"weekday":null,"weekdayOrdinal":null,"isLeapMonth":false}}
            """#, policy: .foundation)
    }

    @Test func aCalendarRendersAsItsIdentifier() throws {
        try expectFoundationPlain(NSCalendar(identifier: .hebrew)!, #"{"root":"hebrew"}"#, policy: .foundation)
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
        .init(rule: "NSAffineTransform NSTransformStruct of 12 bytes", code: "archive.invalid_value", key: "NSTransformStruct") {
            HandBuilt.object("NSAffineTransform", ["NSTransformStruct": transformStruct([1, 2, 3])])
        },
        .init(rule: "NSAffineTransform 9 bytes with tag 3", code: "archive.invalid_value", key: "NSTransformStruct") {
            HandBuilt.object("NSAffineTransform", ["NSTransformStruct": transformStruct([1, 2], tag: 3)])
        },
        .init(rule: "NSAffineTransform NSTransformStruct is a string", code: "archive.shape_mismatch", key: "NSTransformStruct") {
            HandBuilt.object("NSAffineTransform", ["NSTransformStruct": .string("identity")])
        },
        .init(rule: "UIColor without NSColorSpace", code: "archive.missing_field", key: "NSColorSpace") {
            HandBuilt.object("UIColor", ["UIRed": .real(1), "UIGreen": .real(1), "UIBlue": .real(1), "UIAlpha": .real(1)])
        },
        .init(rule: "NSColor in CMYK with three components", code: "archive.invalid_value", key: "NSColorSpace") {
            HandBuilt.object("NSColor", ["NSColorSpace": .integer(5), "NSCMYK": .data(Array("0 0 1".utf8))])
        },
        .init(rule: "NSColor catalog without NSColorName", code: "archive.invalid_value", key: "NSColorSpace") {
            root("NSColor") { builder in ["NSColorSpace": .integer(6), "NSCatalogName": .uid(builder.add(.string("System")))] }
        },
        .init(rule: "NSColor catalog name inline", code: "archive.shape_mismatch", key: "NSCatalogName") {
            root("NSColor") { builder in
                ["NSColorSpace": .integer(6), "NSCatalogName": .string("System"), "NSColorName": .uid(builder.add(.string("textColor")))]
            }
        },
        .init(rule: "NSColor catalog fallback is a string", code: "policy.class_mismatch", path: "/root") {
            root("NSColor") { builder in
                ["NSColorSpace": .integer(6), "NSCatalogName": .uid(builder.add(.string("System"))),
                 "NSColorName": .uid(builder.add(.string("textColor"))), "NSColor": .uid(builder.add(.string("black")))]
            }
        },
        .init(rule: "NSPersonNameComponents private data of another class", code: "policy.class_mismatch", path: "/root") {
            root("NSPersonNameComponents") { builder in
                ["NS.nameComponentsPrivate": .uid(builder.object(class: builder.classRecord("NSPersonNameComponents"), fields: [:]))]
            }
        },
        .init(rule: "UIColor with some components missing", code: "archive.invalid_value", key: "NSColorSpace") {
            HandBuilt.object("UIColor", ["NSColorSpace": .integer(2), "UIRed": .real(1), "NSRGB": .data(Array("1 0 0".utf8))])
        },
        .init(rule: "NSColor NSRGB text is not numbers", code: "archive.invalid_value", key: "NSColorSpace") {
            HandBuilt.object("NSColor", ["NSColorSpace": .integer(2), "NSRGB": .data(Array("red".utf8))])
        },
        .init(rule: "NSDateComponents without NS.isLeapMonth", code: "archive.missing_field", key: "NS.isLeapMonth") {
            HandBuilt.object("NSDateComponents", dateComponentFields(leap: nil))
        },
        .init(rule: "NSDateComponents NS.year is a real", code: "archive.shape_mismatch", key: "NS.year") {
            HandBuilt.object("NSDateComponents", dateComponentFields(leap: .bool(false), year: .real(2024)))
        },
        .init(rule: "NSCalendar with an unknown identifier", code: "archive.invalid_value", key: "NS.identifier") {
            calendar(identifier: "klingon", firstWeekday: 1)
        },
        .init(rule: "NSCalendar first weekday 0", code: "archive.invalid_value", key: "NS.firstwkdy") {
            calendar(identifier: "gregorian", firstWeekday: 0)
        },
    ]

    static func dateComponentFields(leap: PropertyListValue?, year: PropertyListValue = .integer(2024)) -> KeyValuePairs<String, PropertyListValue> {
        let undefined = PropertyListValue.integer(Int128(Int.max))
        if let leap {
            return ["NS.era": undefined, "NS.year": year, "NS.quarter": undefined, "NS.month": .integer(3), "NS.day": undefined,
                    "NS.hour": undefined, "NS.minute": undefined, "NS.second": undefined, "NS.nanosec": undefined,
                    "NS.weekOfYear": undefined, "NS.weekOfMonth": undefined, "NS.yearForWOY": undefined, "NS.weekday": undefined,
                    "NS.weekdayOrdinal": undefined, "NS.isLeapMonth": leap]
        }
        return ["NS.era": undefined, "NS.year": year, "NS.quarter": undefined, "NS.month": .integer(3), "NS.day": undefined,
                "NS.hour": undefined, "NS.minute": undefined, "NS.second": undefined, "NS.nanosec": undefined,
                "NS.weekOfYear": undefined, "NS.weekOfMonth": undefined, "NS.yearForWOY": undefined, "NS.weekday": undefined,
                "NS.weekdayOrdinal": undefined]
    }

    static func calendar(identifier: String, firstWeekday: Int128) -> [UInt8] {
        root("NSCalendar") { builder in
            let name = builder.add(.string(identifier))
            let localeName = builder.add(.string("en_US"))
            let locale = builder.object(class: builder.classRecord("NSLocale"), fields: ["NS.identifier": .uid(localeName)])
            return ["NS.identifier": .uid(name), "NS.locale": .uid(locale), "NS.firstwkdy": .integer(firstWeekday), "NS.mindays": .integer(1)]
        }
    }

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
        let report = try Inspect.report(example.bytes(), policy: Self.uikit)
        #expect(!report.valid)
        #expect(report.violations.first?.code.rawValue == example.code, "\(report.violations)")
        #expect(report.violations.first?.path == example.path)
        if example.key != nil { #expect(report.violations.first?.key == example.key) }
    }
}
