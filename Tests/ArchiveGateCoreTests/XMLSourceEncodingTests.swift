import Foundation
import Testing
@testable import ArchiveGateCore

/// XML property lists in the encodings CoreFoundation reads: UTF-16 LE/BE with a byte-order mark
/// (and without one, told by `<?`), ISO-8859-1 by declaration — each giving the JSON of the same
/// graph written in UTF-8.
@Suite struct XMLSourceEncodingTests {
    /// A Foundation-written XML archive with non-ASCII and astral text, in UTF-8.
    static func utf8Archive() throws -> [UInt8] {
        let graph: NSDictionary = ["name": "Zoë 日本 😀", "count": 3, "list": ["a", "b"] as NSArray]
        return try FoundationFixture.archive(graph, as: .xml)
    }

    /// `utf8` re-encoded as UTF-16, the declaration saying so.
    static func utf16(_ utf8: [UInt8], littleEndian: Bool, byteOrderMark: Bool = true) -> [UInt8] {
        var text = String(decoding: utf8, as: UTF8.self)
        text = text.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        var bytes = [UInt8]()
        for unit in (byteOrderMark ? [UInt16(0xFEFF)] : []) + Array(text.utf16) {
            bytes += littleEndian ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        return bytes
    }

    @Test(arguments: [true, false])
    func utf16WithAByteOrderMarkGivesTheSameJSON(littleEndian: Bool) throws {
        let utf8 = try Self.utf8Archive()
        #expect(String(decoding: utf8, as: UTF8.self).contains("encoding=\"UTF-8\""))
        let expected = try #require(try Inspect.json(utf8, policy: .foundation))
        #expect(expected.contains("Zoë 日本 😀"))
        #expect(try Inspect.json(Self.utf16(utf8, littleEndian: littleEndian), policy: .foundation) == expected)
        #expect(try Inspect.json(Self.utf16(utf8, littleEndian: littleEndian), mode: .typed) == Inspect.json(utf8, mode: .typed))
    }

    @Test(arguments: [true, false])
    func utf16WithoutAByteOrderMarkIsToldByItsFirstCharacters(littleEndian: Bool) throws {
        let utf8 = try Self.utf8Archive()
        #expect(try Inspect.json(Self.utf16(utf8, littleEndian: littleEndian, byteOrderMark: false)) == Inspect.json(utf8))
    }

    @Test func latin1ByDeclaration() throws {
        var bytes = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><plist version="1.0"><string>Zo"#.utf8)
        bytes.append(0xEB)
        bytes += Array("</string></plist>".utf8)
        let plist = try PropertyList.read(bytes)
        #expect(plist.string(at: plist.root) == "Zoë")
    }

    @Test func aDeclarationThatDisagreesWithTheBytesIsRefused() throws {
        let utf8 = try Self.utf8Archive()
        var text = String(decoding: utf8, as: UTF8.self)
        text = text.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"ISO-8859-2\"")
        #expect(throws: PropertyListError.self) { try PropertyList.read(Array(text.utf8)) }
        // UTF-16 bytes declared as UTF-8.
        var declaredUTF8: [UInt8] = [0xFF, 0xFE]
        for unit in "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist><true/></plist>".utf16 {
            declaredUTF8 += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        #expect(throws: PropertyListError.self) { try PropertyList.read(declaredUTF8) }
    }

    @Test func brokenUTF16IsATypedError() {
        let odd: [UInt8] = [0xFF, 0xFE, 0x3C, 0x00, 0x3F]
        #expect(Self.code(odd) == "plist.truncated")
        var lone: [UInt8] = [0xFF, 0xFE]
        for unit in Array("<plist><string>".utf16) + [0xD800] + Array("</string></plist>".utf16) {
            lone += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        #expect(Self.code(lone) == "plist.invalid_xml")
    }

    static func code(_ bytes: [UInt8]) -> String? {
        do {
            _ = try PropertyList.read(bytes)
            return nil
        } catch {
            return error.code.rawValue
        }
    }
}
