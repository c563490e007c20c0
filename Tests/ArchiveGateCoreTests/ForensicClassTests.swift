import Foundation
import Testing
@testable import ArchiveGateCore

/// The classes forensic extractions hold, added to the definitions table for issue 20: each on an
/// archive Foundation's own `NSKeyedArchiver` writes (binary and XML), with its plain JSON, its
/// place in the `foundation` group, and the shape rules that refuse what Foundation would not decode.
@Suite struct ForensicClassTests {
    @Test func dateIntervalRendersItsTwoEnds() throws {
        let interval = NSDateInterval(start: Date(timeIntervalSinceReferenceDate: 100), duration: 3_600)
        try expectFoundationPlain(interval, #"{"root":{"start":"2001-01-01T00:01:40.000Z","end":"2001-01-01T01:01:40.000Z"}}"#,
                                  policy: .foundation)
    }

    @Test func personNameComponentsRenderEveryPartWithNullForAbsentOnes() throws {
        var name = PersonNameComponents()
        name.givenName = "Ada"
        name.familyName = "Lovelace"
        name.nickname = "Countess"
        try expectFoundationPlain(name as NSPersonNameComponents, #"""
            {"root":{"namePrefix":null,"givenName":"Ada","middleName":null,"familyName":"Lovelace","nameSuffix":null,"nickname":"Countess","phoneticRepresentation":null}}
            """#, policy: .foundation)
    }

    /// A CLLocation as Apple's CoreLocation archives it (hand-built: corelibs has no CoreLocation),
    /// with the `kCLLocationCodingKey*` fields iLEAPP reads; values from an iPhone's `routined` cache.
    static let location = HandBuilt.object("CLLocation", [
        "kCLLocationCodingKeyCoordinateLatitude": .real(51.501364),
        "kCLLocationCodingKeyCoordinateLongitude": .real(-0.14189),
        "kCLLocationCodingKeyAltitude": .real(24.5),
        "kCLLocationCodingKeyHorizontalAccuracy": .real(65),
        "kCLLocationCodingKeyVerticalAccuracy": .real(10),
        "kCLLocationCodingKeySpeed": .real(-1),
        "kCLLocationCodingKeyCourse": .real(-1),
        "kCLLocationCodingKeyTimestamp": .real(722_520_000.5),
        "kCLLocationCodingKeyFloor": .integer(2_147_483_647),
        "kCLLocationCodingKeyType": .integer(1),
    ])

    static let corelocation = Inspect.policy(#"{"allow": ["foundation", "corelocation"]}"#)

    /// The floor and type, which ArchiveGate does not read, are shown under `$unread`.
    @Test func locationRendersCoordinatesAccuraciesAndAnISOTimestamp() throws {
        #expect(try Inspect.json(Self.location, policy: Self.corelocation) == #"""
            {"root":{"$unread":{"kCLLocationCodingKeyFloor":2147483647,"kCLLocationCodingKeyType":1},"$value":{"latitude":51.501364,"longitude":-0.14189,"altitude":24.5,"horizontalAccuracy":65,"verticalAccuracy":10,"course":-1,"courseAccuracy":null,"speed":-1,"speedAccuracy":null,"timestamp":"2023-11-24T12:00:00.500Z"}}}
            """#)
    }

    @Test func locationIsNotInTheFoundationGroup() throws {
        #expect(!Policy.foundationGroup.contains("CLLocation"))
        #expect(Policy.namedGroups["corelocation"] == ["CLLocation"])
        let report = try Inspect.report(Self.location, policy: .foundation)
        #expect(report.violations.first?.code.rawValue == "policy.class_not_allowed")
    }

    @Test func theFoundationGroupAdmitsBoth() {
        #expect(Policy.foundationGroup.isSuperset(of: ["NSDateInterval", "NSPersonNameComponents"]))
    }

    static func root(_ name: String, _ fields: @escaping (inout KeyedArchiveBuilder) -> KeyValuePairs<String, PropertyListValue>) -> [UInt8] {
        KeyedArchiveShapeCheckTests.root(name, fields)
    }

    static let cases: [KeyedArchiveShapeCheckTests.Case] = [
        .init(rule: "NSDateInterval without NS.endDate", code: "archive.missing_field", key: "NS.endDate") {
            root("NSDateInterval") { builder in
                let date = builder.object(class: builder.classRecord("NSDate"), fields: ["NS.time": .real(1)])
                return ["NS.startDate": .uid(date)]
            }
        },
        .init(rule: "NSDateInterval NS.startDate is inline", code: "archive.shape_mismatch", key: "NS.startDate") {
            root("NSDateInterval") { builder in
                let date = builder.object(class: builder.classRecord("NSDate"), fields: ["NS.time": .real(1)])
                return ["NS.startDate": .real(1), "NS.endDate": .uid(date)]
            }
        },
        .init(rule: "NSDateInterval NS.endDate is a string", code: "policy.class_mismatch", path: "/root/end") {
            root("NSDateInterval") { builder in
                let date = builder.object(class: builder.classRecord("NSDate"), fields: ["NS.time": .real(1)])
                return ["NS.startDate": .uid(date), "NS.endDate": .uid(builder.add(.string("tomorrow")))]
            }
        },
        .init(rule: "NSPersonNameComponents NS.givenName is inline", code: "archive.shape_mismatch", key: "NS.givenName") {
            root("NSPersonNameComponents") { _ in ["NS.givenName": .integer(7)] }
        },
        .init(rule: "NSPersonNameComponents NS.familyName is a date", code: "policy.class_mismatch", path: "/root/familyName") {
            root("NSPersonNameComponents") { builder in
                ["NS.familyName": .uid(builder.object(class: builder.classRecord("NSDate"), fields: ["NS.time": .real(1)]))]
            }
        },
        .init(rule: "CLLocation without a latitude", code: "archive.missing_field", key: "kCLLocationCodingKeyCoordinateLatitude") {
            HandBuilt.object("CLLocation", ["kCLLocationCodingKeyCoordinateLongitude": .real(1)])
        },
        .init(rule: "CLLocation timestamp is a string", code: "archive.shape_mismatch", key: "kCLLocationCodingKeyTimestamp") {
            HandBuilt.object("CLLocation", ["kCLLocationCodingKeyCoordinateLatitude": .real(1), "kCLLocationCodingKeyCoordinateLongitude": .real(1),
                                            "kCLLocationCodingKeyTimestamp": .string("yesterday")])
        },
    ]

    @Test(arguments: cases)
    func foundationPolicyRejects(_ example: KeyedArchiveShapeCheckTests.Case) throws {
        let report = try Inspect.report(example.bytes(), policy: Self.corelocation)
        #expect(!report.valid)
        #expect(report.violations.first?.code.rawValue == example.code, "\(report.violations)")
        #expect(report.violations.first?.path == example.path)
        if example.key != nil { #expect(report.violations.first?.key == example.key) }
    }
}
