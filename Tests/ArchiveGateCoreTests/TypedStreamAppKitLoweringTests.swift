import Testing
@testable import ArchiveGateCore

/// NSFont and NSValue's geometry forms, lowered from hand-made graphs laid out as the Interface
/// Builder nibs and Grapher documents of the typedstream corpus have them.
@Suite struct TypedStreamAppKitLoweringTests {
    /// The serialized-property-list string an NSFont's name is: tag 6 and the byte length in
    /// `littleEndian` order, UTF-16 text after its byte-order mark, zero-padded to 4 bytes.
    static func serializedName(_ name: String, littleEndian: Bool = true, textBigEndian: Bool = true) -> [UInt8] {
        var text: [UInt8] = textBigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in name.utf16 {
            let pair = [UInt8(unit >> 8), UInt8(unit & 0xFF)]
            text += textBigEndian ? pair : pair.reversed()
        }
        func word(_ value: Int) -> [UInt8] {
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * (3 - $0))) }
            return littleEndian ? bytes.reversed() : bytes
        }
        var bytes = word(6) + word(text.count) + text
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    static func font(_ serialized: [UInt8], size: Float = 13, flags: [Int64] = [0, 1, 0, 4]) -> TypedStreamGraphMaker {
        var maker = TypedStreamGraphMaker()
        var groups: [(String, [TypedStreamValue])] = [("i", [.signed(Int64(serialized.count))]),
                                                      ("[\(serialized.count)c]", [.byteArray(serialized)]), ("f", [.float(size)])]
        groups += flags.map { ("c", [.signed($0)]) }
        maker.root(maker.object(["NSFont"], groups))
        return maker
    }

    @Test(arguments: [(true, true), (false, true), (true, false)])
    func aFontShowsItsNameSizeAndFlags(littleEndian: Bool, textBigEndian: Bool) throws {
        let maker = Self.font(Self.serializedName("LucidaGrande", littleEndian: littleEndian, textBigEndian: textBigEndian))
        let json = try TypedStreamLoweringTests.plain(maker)
        #expect(json == #"{"root":{"name":"LucidaGrande","size":13,"flags":65540}}"#)
    }

    /// A name that is not a serialized string leaves the font generic, which the keyed NSFont
    /// shape check then reports, as for a keyed NSFont without NSName.
    @Test func aFontWithAnUnreadableNameIsGenericAndFlagged() throws {
        var serialized = Self.serializedName("Helvetica")
        serialized[0] = 7
        let report = try Inspect.report(Self.font(serialized).keyedBytes())
        #expect(report.violations.map(\.code.rawValue).contains("archive.missing_field"))
        #expect(report.violations.first?.path == "/root")
    }

    @Test func geometryValuesBecomeTheirKeyedForms() throws {
        var maker = TypedStreamGraphMaker()
        let size = maker.object(["NSValue"], [("*", [.cString(Array("{CGSize=dd}".utf8))]),
                                              ("{CGSize=dd}", [.structure(name: "CGSize", fields: [.double(1708), .double(960.5)])])])
        let rect = maker.object(["NSValue"], [
            ("*", [.cString(Array("{_NSRect={_NSPoint=ff}{_NSSize=ff}}".utf8))]),
            ("{_NSRect={_NSPoint=ff}{_NSSize=ff}}", [.structure(name: "_NSRect", fields: [
                .structure(name: "_NSPoint", fields: [.float(1), .float(2)]),
                .structure(name: "_NSSize", fields: [.float(3), .float(4)]),
            ])]),
        ])
        let range = maker.object(["NSValue"], [("*", [.cString(Array("{_NSRange=QQ}".utf8))]),
                                               ("{_NSRange=QQ}", [.structure(name: "_NSRange", fields: [.unsigned(5), .unsigned(7)])])])
        let array = maker.object(["NSArray"], [("i", [.signed(3)]), ("@", [.object(size)]), ("@", [.object(rect)]), ("@", [.object(range)])])
        maker.root(array)
        let json = try TypedStreamLoweringTests.plain(maker)
        #expect(json == #"{"root":[{"width":1708,"height":960.5},{"x":1,"y":2,"width":3,"height":4},{"location":5,"length":7}]}"#)
    }
}
