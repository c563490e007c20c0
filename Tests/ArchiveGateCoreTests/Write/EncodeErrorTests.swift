import Testing
@testable import ArchiveGateCore

/// Typed JSON from a client is untrusted: every refusal is a typed error with a JSON pointer.
@Suite struct EncodeErrorTests {
    static func failure(_ json: String, limits: DecodeLimits = DecodeLimits(), format: PropertyList.Format = .binary) -> EncodeError? {
        do {
            _ = try ArchiveEncoder(limits: limits).encode(Array(json.utf8), format: format)
            return nil
        } catch {
            return error
        }
    }

    static func archive(_ objects: String, top: String = #"{"root":{"$uid":1}}"#) -> String {
        #"{"$archiver":"NSKeyedArchiver","$version":100000,"$top":\#(top),"$objects":["$null",\#(objects)]}"#
    }

    static let arrayRecord = #"{"$classname":"NSArray","$classes":["NSArray","NSObject"]}"#

    @Test(arguments: [
        // (JSON, code, pointer)
        (archive(#"{"$class":{"$uid":2},"NS.objects":[{"$uid":9}]}, \#(arrayRecord)"#), "archive.dangling_uid", "/$objects/1/NS.objects/0"),
        (archive(#"{"$class":{"$uid":2},"NS.objects":[{"$uid":1}]}, \#(arrayRecord)"#), "archive.collection_cycle", "/root"),
        (archive(#"{"$class":{"$uid":2},"x":{"$when":1}}, \#(arrayRecord)"#), "encode.unknown_tag", "/$objects/1/x/$when"),
        (archive(#"{"$class":{"$uid":2},"x":{"$uid":"1"}}, \#(arrayRecord)"#), "encode.invalid_tag", "/$objects/1/x/$uid"),
        (archive(#"{"$class":{"$uid":2},"x":{"$uid":1,"y":2}}, \#(arrayRecord)"#), "encode.invalid_tag", "/$objects/1/x"),
        (archive(#"{"$class":{"$uid":2},"x":{"$data":"AQ"}}, \#(arrayRecord)"#), "encode.invalid_tag", "/$objects/1/x/$data"),
        (archive(#"{"$class":{"$uid":2},"x":1.5}, \#(arrayRecord)"#), "encode.invalid_value", "/$objects/1/x"),
        (archive(#"{"$class":{"$uid":2},"x":null}, \#(arrayRecord)"#), "encode.invalid_value", "/$objects/1/x"),
        (archive(#"{"$class":{"$uid":2},"x":1,"x":2}, \#(arrayRecord)"#), "encode.duplicate_key", "/$objects/1/x"),
        (archive(#"{"$class":{"$uid":2},"x":"\ud800"}, \#(arrayRecord)"#), "encode.invalid_value", "/$objects/1/x"),
        (archive(#"{"$class":{"$uid":2},"x":1"#), "encode.invalid_json", "/$objects/1"),
        (archive(#"{"$class":{"$uid":7}}"#), "archive.invalid_class_reference", "/$objects/1/$class"),
        (#"{"$archiver":"NSKeyedArchiver","$version":100000,"$top":{"root":{"$uid":1}},"$objects":["nope"]}"#, "archive.invalid_objects", "/$objects/0"),
        (#"[1]"#, "archive.not_a_keyed_archive", ""),
    ])
    func refusals(json: String, code: String, pointer: String) {
        let error = Self.failure(json)
        #expect(error?.code.rawValue == code, "\(json)")
        #expect(error?.pointer == pointer, "\(json): \(String(describing: error))")
    }

    @Test func limitsApply() {
        var limits = DecodeLimits()
        limits.maxDepth = 4
        #expect(Self.failure(Self.archive(#"{"$class":{"$uid":2},"x":[[1]]}, \#(Self.arrayRecord)"#), limits: limits)?.code == .depthLimitExceeded)
        limits = DecodeLimits()
        limits.maxObjects = 5
        #expect(Self.failure(Self.archive(#""a","b","c","d","e","f""#), limits: limits)?.code == .objectLimitExceeded)
        limits = DecodeLimits()
        limits.maxStringBytes = 16
        #expect(Self.failure(Self.archive(#""abcdefghijklmnopq""#), limits: limits)?.pointer == "/$objects/1")
        limits = DecodeLimits()
        limits.maxDataBytes = 2
        #expect(Self.failure(Self.archive(#"{"$class":{"$uid":2},"d":{"$data":"AQID"}}, \#(Self.arrayRecord)"#), limits: limits)?.code == .dataTooLarge)
        limits = DecodeLimits()
        limits.maxInputBytes = 10
        #expect(Self.failure(Self.archive(#""a""#), limits: limits)?.code == .inputTooLarge)
        limits = DecodeLimits()
        limits.maxOutputBytes = 20
        #expect(Self.failure(Self.archive(#""a""#), limits: limits)?.code == .outputLimitExceeded)
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Self.failure(deep)?.code == .depthLimitExceeded)
    }

    @Test func datesAreFinite() {
        #expect(Self.failure(Self.archive(#"{"$class":{"$uid":2},"d":{"$date":"NaN"}}, \#(Self.arrayRecord)"#))?.pointer == "/$objects/1/d/$date")
        #expect(Self.failure(Self.archive(#"{"$class":{"$uid":2},"d":{"$date":1e300}}, \#(Self.arrayRecord)"#))?.code == .invalidTag)
    }

    /// A plist set in a field: NSKeyedArchiver never writes one and corelibs' unarchiver segfaults
    /// on one, so the decoder refuses it, and `encode` (which returns only what the decoder takes)
    /// refuses it at its pointer.
    @Test func aSetInAFieldIsRefused() {
        let set = Self.archive(#"{"$class":{"$uid":2},"s":{"$set":[1]}}, \#(Self.arrayRecord)"#)
        let failure = Self.failure(set)
        #expect(failure?.pointer == "/$objects/1/s", "\(String(describing: failure))")
        #expect(failure?.message.contains("plist set") == true)
    }

    @Test func xmlRefusesWhatItCannotHold() {
        let set = Self.archive(#"{"$class":{"$uid":2},"s":{"$set":[1]}}, \#(Self.arrayRecord)"#)
        #expect(Self.failure(set, format: .xml)?.code == .notRepresentable)
        #expect(Self.failure(Self.archive(#"{"$class":{"$uid":2},"d":{"$date":0.5}}, \#(Self.arrayRecord)"#), format: .xml)?.pointer == "/$objects/1/d/$date")
        #expect(Self.failure(Self.archive(#""bell\u0007""#), format: .xml)?.code == .notRepresentable)
    }

    @Test func realsAndDatesKeepEveryValue() throws {
        for value in [#""NaN""#, #""Infinity""#, #""-Infinity""#, "-0", "1e300", "0.1", "123456789012345678"] {
            let date = ["-0", "0.1"].contains(value) ? value : "1"
            let json = Self.archive(#"{"$class":{"$uid":2},"r":{"$real":\#(value)},"d":{"$date":\#(date)}}, {"$classname":"X","$classes":["X","NSObject"]}"#)
            let encoded = try ArchiveEncoder().encode(Array(json.utf8))
            let typed = try #require(try WriteSamples.typed(encoded))
            let again = try ArchiveEncoder().encode(typed)
            #expect(try WriteSamples.typed(again) == typed, "\(value)")
        }
    }
}
