import Foundation
import Testing
@testable import ArchiveGateCore

/// DESIGN §5's plain-JSON table, one row at a time, on archives Foundation's own `NSKeyedArchiver`
/// writes (binary and XML, see `expectFoundationPlain`) — and, where Foundation on Linux cannot
/// write an encoding Apple's does, on hand-built archives in that encoding.
@Suite struct FoundationRenderingTests {
    // MARK: - Null and strings

    @Test func nsNullRendersAsNull() throws {
        try expectFoundationPlain(NSNull(), #"{"root":null}"#)
    }

    @Test func aNullRootUIDRendersAsNull() throws {
        let bytes = HandBuilt.root { _ in KeyedArchiveBuilder.null }
        #expect(try Inspect.json(bytes) == #"{"root":null}"#)
    }

    @Test func inlineStringsRenderAsStrings() throws {
        try expectFoundationPlain("héllo" as NSString, #"{"root":"héllo"}"#)
        try expectFoundationPlain(NSMutableString(string: "mutable"), #"{"root":"mutable"}"#)
        try expectFoundationPlain("" as NSString, #"{"root":""}"#)
        // Binary writes non-ASCII as UTF-16: the surrogate pair must come out as one UTF-8 scalar.
        try expectFoundationPlain("日本 😀" as NSString, #"{"root":"日本 😀"}"#)
    }

    @Test func stringsAreEscapedForJSON() throws {
        try expectFoundationPlain("quote\" back\\ nl\n tab\t" as NSString, #"{"root":"quote\" back\\ nl\n tab\t"}"#)
        // XML 1.0 cannot carry U+0001, so this one is binary only.
        let bytes = try FoundationFixture.archive("a\u{1}b\u{1F}" as NSString, as: .binary)
        #expect(try Inspect.json(bytes) == #"{"root":"a\u0001b\u001f"}"#)
    }

    @Test func stringInstancesWithNSStringOrNSBytesRenderAsStrings() throws {
        #expect(try Inspect.json(HandBuilt.object("NSString", ["NS.string": "plain"])) == #"{"root":"plain"}"#)
        #expect(try Inspect.json(HandBuilt.object("NSMutableString", ["NS.string": "日本"])) == #"{"root":"日本"}"#)
        let utf8: PropertyListValue = .data(Array("héllo".utf8))
        #expect(try Inspect.json(HandBuilt.object("NSString", ["NS.bytes": utf8])) == #"{"root":"héllo"}"#)
    }

    // MARK: - Numbers

    @Test func integersAreExact() throws {
        try expectFoundationPlain(NSNumber(value: 42), #"{"root":42}"#)
        try expectFoundationPlain(NSNumber(value: -7), #"{"root":-7}"#)
        try expectFoundationPlain(NSNumber(value: Int64.max), #"{"root":9223372036854775807}"#)
        try expectFoundationPlain(NSNumber(value: Int64.min), #"{"root":-9223372036854775808}"#)
        try expectFoundationPlain(NSNumber(value: UInt64.max), #"{"root":18446744073709551615}"#)
    }

    @Test func integersBeyond64BitsAreExact() throws {
        let big = HandBuilt.root { $0.add(.integer(Int128(UInt64.max) + 1)) }
        #expect(try Inspect.json(big) == #"{"root":18446744073709551616}"#)
        let negative = HandBuilt.root { $0.add(.integer(-(Int128(1) << 100))) }
        #expect(try Inspect.json(negative) == #"{"root":-1267650600228229401496703205376}"#)
    }

    @Test func realsUseTheShortestForm() throws {
        try expectFoundationPlain(NSNumber(value: 1.5), #"{"root":1.5}"#)
        try expectFoundationPlain(NSNumber(value: 0.1), #"{"root":0.1}"#)
        try expectFoundationPlain(NSNumber(value: 2.0), #"{"root":2}"#)
        try expectFoundationPlain(NSNumber(value: -123.0), #"{"root":-123}"#)
        try expectFoundationPlain(NSNumber(value: 1e300), #"{"root":1e+300}"#)
        try expectFoundationPlain(NSNumber(value: -2.5e-8), #"{"root":-2.5e-08}"#)
    }

    @Test func nonFiniteRealsAreStrings() throws {
        try expectFoundationPlain(NSNumber(value: Double.nan), #"{"root":"NaN"}"#)
        try expectFoundationPlain(NSNumber(value: Double.infinity), #"{"root":"Infinity"}"#)
        try expectFoundationPlain(NSNumber(value: -Double.infinity), #"{"root":"-Infinity"}"#)
    }

    @Test func booleansAreJSONBooleans() throws {
        try expectFoundationPlain(NSNumber(value: true), #"{"root":true}"#)
        try expectFoundationPlain(NSNumber(value: false), #"{"root":false}"#)
    }

    // MARK: - Data and dates

    @Test func dataIsBase64() throws {
        try expectFoundationPlain(Data([1, 2, 3]) as NSData, #"{"root":"AQID"}"#)
        try expectFoundationPlain(Data([0xFF]) as NSData, #"{"root":"/w=="}"#)
        try expectFoundationPlain(Data() as NSData, #"{"root":""}"#)
        try expectFoundationPlain(NSMutableData(data: Data([0xFB, 0xFF])), #"{"root":"+/8="}"#)
    }

    @Test func dataInstancesWithNSDataAreBase64() throws {
        let bytes = HandBuilt.object("NSData", ["NS.data": .data([0xFF, 0x00, 0x10, 0x20])])
        #expect(try Inspect.json(bytes) == #"{"root":"/wAQIA=="}"#)
    }

    /// At least milliseconds, and every further digit of the double's shortest decimal.
    @Test func datesAreISO8601UTCWithEveryDigitTheDoubleHolds() throws {
        try expectFoundationPlain(NSDate(timeIntervalSinceReferenceDate: 0), #"{"root":"2001-01-01T00:00:00.000Z"}"#)
        try expectFoundationPlain(NSDate(timeIntervalSinceReferenceDate: 1234.5678), #"{"root":"2001-01-01T00:20:34.5678Z"}"#)
        try expectFoundationPlain(NSDate(timeIntervalSinceReferenceDate: 709_479_508.623529), #"{"root":"2023-06-26T13:38:28.623529Z"}"#)
        try expectFoundationPlain(NSDate(timeIntervalSinceReferenceDate: -0.0000015), #"{"root":"2000-12-31T23:59:59.9999985Z"}"#)
        try expectFoundationPlain(NSDate(timeIntervalSinceReferenceDate: 1e-7), #"{"root":"2001-01-01T00:00:00.0000001Z"}"#)
        try expectFoundationPlain(NSDate(timeIntervalSinceReferenceDate: -1.5), #"{"root":"2000-12-31T23:59:58.500Z"}"#)
        try expectFoundationPlain(NSDate(timeIntervalSince1970: 1_700_000_000), #"{"root":"2023-11-14T22:13:20.000Z"}"#)
        try expectFoundationPlain(NSDate(timeIntervalSince1970: 951_782_400), #"{"root":"2000-02-29T00:00:00.000Z"}"#)
        // Years below 1000 zero-padded to four digits; whole parts of eleven and twelve digits.
        try expectFoundationPlain(NSDate(timeIntervalSinceReferenceDate: -60_000_000_000.25), #"{"root":"0099-09-04T13:19:59.750Z"}"#)
        try expectFoundationPlain(NSDate(timeIntervalSinceReferenceDate: 250_000_000_000.5), #"{"root":"9923-03-10T12:26:40.500Z"}"#)
        try expectFoundationPlain(NSDate(timeIntervalSinceReferenceDate: 123_456_789_012), #"{"root":"5913-03-12T00:30:12.000Z"}"#)
    }

    // MARK: - Collections

    @Test func arraysKeepArchiveOrder() throws {
        // (A Swift `true` bridges to an integer NSNumber on Linux, and Foundation archives an
        // NSNumber(value: true) equal to a 1 beside it as that 1: hence `false` and no 0.)
        try expectFoundationPlain(["b", 1, NSNumber(value: false), 2.5] as NSArray, #"{"root":["b",1,false,2.5]}"#)
        try expectFoundationPlain(NSMutableArray(array: ["x", NSNull()]), #"{"root":["x",null]}"#)
        try expectFoundationPlain([["nested"], [] as NSArray] as NSArray, #"{"root":[["nested"],[]]}"#)
        try expectFoundationPlain(NSArray(), #"{"root":[]}"#)
    }

    @Test func setsRenderAsArrays() throws {
        try expectFoundationPlain(NSSet(object: "only"), #"{"root":["only"]}"#)
        try expectFoundationPlain(NSMutableSet(object: 5 as NSNumber), #"{"root":[5]}"#)
        try expectFoundationPlain(NSSet(), #"{"root":[]}"#)
        // Several elements come out in Foundation's hash order: compare them as a set.
        for format in FixtureFormat.allCases {
            let json = try Inspect.json(try FoundationFixture.archive(NSSet(array: ["c", "a", "b"]), as: format)) ?? ""
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [String]]
            #expect(object?["root"]?.sorted() == ["a", "b", "c"], "\(format): \(json)")
        }
    }

    @Test func orderedSetsKeepTheirOrder() throws {
        try expectFoundationPlain(NSOrderedSet(array: ["b", "a", "c"]), #"{"root":["b","a","c"]}"#)
        try expectFoundationPlain(NSMutableOrderedSet(array: [3, 1, 2] as [NSNumber]), #"{"root":[3,1,2]}"#)
        try expectFoundationPlain(NSOrderedSet(), #"{"root":[]}"#)
        // Apple writes ordered sets with NS.objects (corelibs numbers NS.object.0 …).
        let apple = HandBuilt.root { builder in
            let elements = [builder.add("y"), builder.add("x")]
            return builder.array(of: elements, className: "NSOrderedSet")
        }
        #expect(try Inspect.json(apple) == #"{"root":["y","x"]}"#)
    }

    @Test func dictionariesWithStringKeysAreObjects() throws {
        try expectFoundationPlain(["k": "v"] as NSDictionary, #"{"root":{"k":"v"}}"#)
        try expectFoundationPlain(NSMutableDictionary(dictionary: ["n": 1]), #"{"root":{"n":1}}"#)
        try expectFoundationPlain(NSDictionary(), #"{"root":{}}"#)
        try expectFoundationPlain(["a": 1, "b": ["x"], "c": ["d": NSNull()]] as NSDictionary,
                                  #"{"root":{"a":1,"b":["x"],"c":{"d":null}}}"#, anyKeyOrder: true)
    }

    @Test func dictionariesWithOtherKeysAreKeyValuePairs() throws {
        try expectFoundationPlain([1 as NSNumber: "one"] as NSDictionary, #"{"root":[{"key":1,"value":"one"}]}"#)
        try expectFoundationPlain([Data([1]) as NSData: NSNull()] as NSDictionary, #"{"root":[{"key":"AQ==","value":null}]}"#)
    }

    // MARK: - Value classes

    @Test func urlsRenderAsAbsoluteStrings() throws {
        try expectFoundationPlain(NSURL(string: "https://example.com/a?b=c#d")!, #"{"root":"https://example.com/a?b=c#d"}"#)
        let relative = NSURL(string: "b/c?q=1", relativeTo: URL(string: "https://example.com/a/x"))!
        try expectFoundationPlain(relative, #"{"root":"https://example.com/a/b/c?q=1"}"#)
    }

    @Test func uuidsRenderUpperCase() throws {
        try expectFoundationPlain(NSUUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")!,
                                  #"{"root":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#)
    }

    @Test func valueGeometryRendersAsNamedNumbers() throws {
        try expectFoundationPlain(NSValue(point: NSPoint(x: 1, y: 2.5)), #"{"root":{"x":1,"y":2.5}}"#)
        try expectFoundationPlain(NSValue(size: NSSize(width: 3, height: 0.25)), #"{"root":{"width":3,"height":0.25}}"#)
        try expectFoundationPlain(NSValue(rect: NSRect(x: -1.5, y: 2, width: 3, height: 4)),
                                  #"{"root":{"x":-1.5,"y":2,"width":3,"height":4}}"#)
        try expectFoundationPlain(NSValue(range: NSRange(location: 5, length: 6)), #"{"root":{"location":5,"length":6}}"#)
        try expectFoundationPlain(NSValue(edgeInsets: NSEdgeInsets(top: 1, left: 2, bottom: 3.5, right: 4)),
                                  #"{"root":{"top":1,"left":2,"bottom":3.5,"right":4}}"#)
    }

    /// corelibs writes one run as an `NSAttributes` dictionary without `NSAttributeInfo`, several as
    /// an `NSAttributes` array and `NSAttributeInfo` varint pairs, as Apple's Foundation does.
    @Test func attributedStringsRenderAsTheirRuns() throws {
        let plain = NSAttributedString(string: "hello", attributes: [NSAttributedString.Key("k"): "v"])
        try expectFoundationPlain(plain, #"{"root":[{"text":"hello","attributes":{"k":"v"}}]}"#)
        let styled = NSMutableAttributedString(string: "hello world")
        styled.addAttribute(NSAttributedString.Key("k"), value: "v", range: NSRange(location: 0, length: 5))
        try expectFoundationPlain(styled, #"{"root":[{"text":"hello","attributes":{"k":"v"}},{"text":" world","attributes":{}}]}"#)
        try expectFoundationPlain(NSAttributedString(string: ""), #"{"root":[]}"#)
    }

    @Test func localesAndTimeZonesRenderTheirIdentifiers() throws {
        try expectFoundationPlain(NSLocale(localeIdentifier: "en_US"), #"{"root":"en_US"}"#)
        try expectFoundationPlain(NSTimeZone(name: "Europe/Paris")!, #"{"root":"Europe/Paris"}"#)
    }

    @Test func indexSetsRenderAsRanges() throws {
        try expectFoundationPlain(NSIndexSet(indexesIn: NSRange(location: 2, length: 3)), #"{"root":[{"location":2,"length":3}]}"#)
        let several = NSMutableIndexSet(indexesIn: NSRange(location: 2, length: 3))
        several.add(200)
        try expectFoundationPlain(several, #"{"root":[{"location":2,"length":3},{"location":200,"length":1}]}"#)
        try expectFoundationPlain(NSIndexSet(), #"{"root":[]}"#)
    }

    /// NSError's archiving crashes Foundation on Linux (it hashes the error); Apple's encoding by hand.
    @Test func errorsRenderDomainCodeAndUserInfo() throws {
        let bytes = HandBuilt.error(domain: "NSCocoaErrorDomain", code: -7, userInfo: [("NSLocalizedDescription", "nope")])
        #expect(try Inspect.json(bytes) == #"{"root":{"domain":"NSCocoaErrorDomain","code":-7,"userInfo":{"NSLocalizedDescription":"nope"}}}"#)
    }

    /// NSDecimalNumber's archiving crashes Foundation on Linux (hash recursion); Apple's encoding by hand.
    @Test func decimalNumbersRenderAsExactDecimalStrings() throws {
        #expect(try Inspect.json(HandBuilt.decimal(mantissa: 12_345, exponent: -2, negative: true)) == #"{"root":"-123.45"}"#)
        #expect(try Inspect.json(HandBuilt.decimal(mantissa: 5, exponent: 3, negative: false)) == #"{"root":"5000"}"#)
        #expect(try Inspect.json(HandBuilt.decimal(mantissa: 5, exponent: -3, negative: false)) == #"{"root":"0.005"}"#)
        #expect(try Inspect.json(HandBuilt.decimal(mantissa: UInt64.max, exponent: 0, negative: false))
                == #"{"root":"18446744073709551615"}"#)
        #expect(try Inspect.json(HandBuilt.decimal(mantissa: 0, exponent: 0, negative: false, length: 0)) == #"{"root":"0"}"#)
        #expect(try Inspect.json(HandBuilt.decimal(mantissa: 0, exponent: 0, negative: true, length: 0)) == #"{"root":"NaN"}"#)
    }

    // MARK: - Shapes that do not match

    @Test func foundationObjectsWithForeignFieldsRenderAsClassObjects() throws {
        let date = HandBuilt.object("NSDate", ["NS.time": "yesterday"])
        #expect(try Inspect.json(date) == #"{"root":{"$class":"NSDate","NS.time":"yesterday"}}"#)
        let uuid = HandBuilt.object("NSUUID", ["NS.uuidbytes": .data([UInt8](repeating: 0, count: 15))])
        #expect(try Inspect.json(uuid) == #"{"root":{"$class":"NSUUID","NS.uuidbytes":"AAAAAAAAAAAAAAAAAAAA"}}"#)
        let value = HandBuilt.object("NSValue", ["NS.special": 99, "NS.bytes": .data([1])])
        #expect(try Inspect.json(value) == #"{"root":{"$class":"NSValue","NS.special":99,"NS.bytes":"AQ=="}}"#)
    }

    // MARK: - The document

    @Test func everyTopKeyIsAMember() throws {
        let entries: [(String, Any?)] = [("first", "a"), ("second", NSNumber(value: 2)), ("third", nil)]
        #expect(try Inspect.json(FoundationFixture.archive(topLevel: entries, as: .xml)) == #"{"first":"a","second":2,"third":null}"#)
        let binary = try Inspect.json(FoundationFixture.archive(topLevel: entries, as: .binary))
        #expect(binary.flatMap(CanonicalJSON.sorted) == #"{"first":"a","second":2,"third":null}"#)
    }

    @Test func reportsNameTheFormatRead() throws {
        for format in FixtureFormat.allCases {
            let report = try Inspect.report(FoundationFixture.archive(NSDate(timeIntervalSinceReferenceDate: 0), as: format),
                                            policy: .foundation)
            #expect(report.valid)
            #expect(report.format == format.plistFormat)
            #expect(report.objectCount == 3)
            #expect(report.classes.map(\.name) == ["NSDate"])
        }
    }

    /// Foundation leaves NSAttributes out of an empty string and writes an empty dictionary for a
    /// string without attributes (the oracle found 215 Foundation-written archives refused while
    /// NSAttributes was required for the empty string).
    @Test(arguments: FixtureFormat.allCases)
    func anAttributedStringWithoutAttributesIsValid(format: FixtureFormat) throws {
        for text in ["plain", ""] {
            let bytes = try FoundationFixture.archive(NSAttributedString(string: text), as: format)
            let report = try ArchiveInspector(policy: .foundation).validate(bytes)
            #expect(report.valid, "\(text): \(report.violations.map { "\($0.code) \($0.path) \($0.message)" })")
        }
    }
}
