import Foundation
import Testing
@testable import ArchiveGateCore

/// The lossless typed JSON of a typedstream, parsed back and checked value by value.
@Suite struct TypedStreamJSONTests {
    static func document(_ bytes: [UInt8], redacted: Set<Int> = [], limits: DecodeLimits = DecodeLimits()) throws -> [String: Any] {
        let graph = try TypedStreamReader.read(ByteStorage(bytes), limits: PropertyListLimits())
        let json = try TypedStreamJSON.render(graph, redacted: redacted, limits: limits)
        return try #require(JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
    }

    @Test func theHelloStringRendersEveryPart() throws {
        let document = try Self.document(TypedStreamTests.helloString)
        let header = try #require(document["header"] as? [String: Any])
        #expect(header["byteOrder"] as? String == "little")
        #expect(header["streamerVersion"] as? Int == 4)
        #expect(header["systemVersion"] as? Int == 1000)
        let classes = try #require(document["classes"] as? [[String: Any]])
        #expect(classes.map { $0["name"] as? String } == ["NSString", "NSObject"])
        #expect(classes.map { $0["version"] as? Int } == [1, 0])
        #expect((classes[0]["superclass"] as? [String: Int]) == ["$class": 1])
        #expect(classes[1]["superclass"] is NSNull)
        #expect(classes.map { $0["offset"] as? Int } == [20, 32])
        let objects = try #require(document["objects"] as? [[String: Any]])
        #expect(objects.count == 1)
        #expect((objects[0]["class"] as? [String: Int]) == ["$class": 0])
        let groups = try #require(objects[0]["groups"] as? [[String: Any]])
        #expect(groups.count == 1)
        #expect(groups[0]["type"] as? String == "+")
        #expect((groups[0]["values"] as? [[String: String]]) == [["$data": Data("hello".utf8).base64EncodedString()]])
        let top = try #require(document["top"] as? [[String: Any]])
        #expect(top.count == 1 && top[0]["type"] as? String == "@")
        #expect((top[0]["values"] as? [[String: Int]]) == [["$object": 0]])
    }

    @Test func everyScalarKindHasItsForm() throws {
        let header = TypedStreamHostileTests.header
        let bytes = header + TypedStreamHostileTests.new("Qfd{r=ii}[2c]*:#@") + [0x87, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                                                               0x83, 0xCD, 0xCC, 0xCC, 0x3D, 0x83, 0, 0, 0, 0, 0, 0, 0xF0, 0x7F,
                                                                               0x01, 0x02, 0xCA, 0xFE, 0x85, 0x85, 0x85, 0x85]
        let document = try Self.document(bytes)
        let top = try #require(document["top"] as? [[String: Any]])
        let values = try #require(top.first?["values"] as? [Any])
        #expect(values.count == 9)
        #expect((values[0] as? NSNumber)?.uint64Value == UInt64.max)
        #expect((values[1] as? NSNumber).map { Float($0.doubleValue) } == Float(0.1))
        #expect(values[2] as? String == "Infinity")
        #expect((values[3] as? [Int]) == [1, 2])
        #expect((values[4] as? [String: String]) == ["$data": Data([0xCA, 0xFE]).base64EncodedString()])
        #expect(values[5...].allSatisfy { $0 is NSNull })
    }

    @Test func aRedactedObjectKeepsOnlyItsClass() throws {
        let document = try Self.document(TypedStreamTests.helloString, redacted: [0])
        let objects = try #require(document["objects"] as? [[String: Any]])
        #expect(objects.count == 1)
        #expect(objects[0].keys.sorted() == ["$redacted"])
        #expect((objects[0]["$redacted"] as? [String: Int]) == ["$class": 0])
    }

    @Test func theOutputBudgetApplies() throws {
        let graph = try TypedStreamReader.read(ByteStorage(TypedStreamTests.helloString), limits: PropertyListLimits())
        var limits = DecodeLimits()
        limits.maxOutputBytes = 60
        #expect(throws: ArchiveError(.outputLimitExceeded, path: "", "")) {
            try TypedStreamJSON.render(graph, redacted: [], limits: limits)
        }
        let whole = try TypedStreamJSON.render(graph, redacted: [], limits: DecodeLimits())
        limits.maxOutputBytes = whole.count
        #expect(try TypedStreamJSON.render(graph, redacted: [], limits: limits) == whole)
    }

    @Test(.enabled(if: TypedStreamCorpus.isPresent, Comment(rawValue: TypedStreamCorpus.absent)))
    func anIMessageBodyRendersItsTextAndClasses() throws {
        let document = try Self.document(TypedStreamCorpus.bytes("crabstep/33162f000e9abad2_AttributedBodyTextOnly"))
        let classes = try #require(document["classes"] as? [[String: Any]])
        #expect(classes.first?["name"] as? String == "NSMutableAttributedString")
        let objects = try #require(document["objects"] as? [[String: Any]])
        // The attributed string's first group holds its NSString, whose "+" group is the text.
        let string = try #require((objects[0]["groups"] as? [[String: Any]])?.first?["values"] as? [[String: Int]])
        let stringIndex = try #require(string.first?["$object"])
        let text = try #require((objects[stringIndex]["groups"] as? [[String: Any]])?.first)
        #expect(text["type"] as? String == "+")
        let data = try #require((text["values"] as? [[String: String]])?.first?["$data"])
        #expect(String(decoding: try #require(Data(base64Encoded: data)), as: UTF8.self) == "Noter test")
    }
}
