import Foundation
import Testing
@testable import ArchiveGateCore

/// archive → typed JSON → encode → archive′: archive′ has the same typed JSON, and Foundation
/// decodes it to a graph equal to the original's.
@Suite struct EncodeRoundTripTests {
    /// Checks one archive; returns a description of the first difference, nil when it round-trips.
    static func roundTrip(_ name: String, _ bytes: [UInt8]) throws -> String? {
        guard let typed = try WriteSamples.typed(bytes) else { return "\(name): inspection rejected it" }
        let encoded = try ArchiveEncoder().encode(typed)
        guard try WriteSamples.typed(encoded) == typed else { return "\(name): the binary archive′ has other typed JSON" }
        let xml: [UInt8]?
        do throws(EncodeError) {
            xml = try ArchiveEncoder().encode(typed, format: .xml)
        } catch {
            // A $set, a fractional date or a control character: XML cannot hold it, and says so.
            guard error.code == .notRepresentable else { return "\(name): XML: \(error)" }
            xml = nil
        }
        if let xml, try WriteSamples.typed(xml) != typed { return "\(name): the XML archive′ has other typed JSON" }
        if WriteSamples.isFoundationOnly(bytes) {
            guard WriteSamples.isFoundationOnly(encoded) else { return "\(name): archive′ is not Foundation-only" }
            let original = try WriteSamples.foundationGraph(bytes)
            let again = try WriteSamples.foundationGraph(encoded)
            guard WriteSamples.sameGraph(original, again) else { return "\(name): Foundation decodes \(again) from archive′, \(original) from the original" }
        }
        return nil
    }

    @Test func everyFixtureRoundTrips() throws {
        let samples = try WriteSamples.fixtures()
        #expect(samples.count > 30)
        var foundationChecked = 0
        for (name, bytes) in samples {
            let problem = try Self.roundTrip(name, bytes)
            #expect(problem == nil)
            if WriteSamples.isFoundationOnly(bytes) { foundationChecked += 1 }
        }
        // The property is not vacuous: most fixtures are Foundation-only and were decoded by Foundation.
        #expect(foundationChecked >= 15)
    }

    @Test func encodedBytesAreTheWriterOfTheDescribedPlist() throws {
        // The order KeyedArchiveBuilder writes: $version first, the class record before the array.
        let typed = #"{"$version":100000,"$archiver":"NSKeyedArchiver","$top":{"root":{"$uid":2}},"#
            + #""$objects":["$null",{"$classname":"NSArray","$classes":["NSArray","NSObject"]},"#
            + #"{"$class":{"$uid":1},"NS.objects":[{"$uid":3}]},"x"]}"#
        let encoded = try ArchiveEncoder().encode(Array(typed.utf8))
        var builder = KeyedArchiveBuilder()
        let root = builder.array(of: [3])
        builder.add("x")
        builder.setTop("root", root)
        #expect(encoded == builder.binary())
        let decoded = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, NSString.self], from: Data(encoded))
        #expect(decoded as? NSArray == ["x"] as NSArray)
    }
}

@Suite(.enabled(if: SharedMaterial.hasCorpus, Comment(rawValue: SharedMaterial.corpusAbsent)))
struct EncodeCorpusRoundTripTests {
    @Test func everyCorpusArchiveRoundTrips() throws {
        let samples = try WriteSamples.corpus()
        #expect(samples.count >= 80)
        for (name, bytes) in samples {
            let problem = try EncodeRoundTripTests.roundTrip(name, bytes)
            #expect(problem == nil)
        }
    }
}
