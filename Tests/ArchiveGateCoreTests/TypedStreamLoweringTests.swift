import Testing
@testable import ArchiveGateCore

/// Each class layout of `TypedStreamLayout`, lowered from a hand-made graph (laid out as Apple's
/// NSArchiver writes it) and rendered through the keyed pipeline: the plain JSON is what a keyed
/// archive of the same objects gives.
@Suite struct TypedStreamLoweringTests {
    /// The plain JSON of `maker`'s lowered archive in inspection mode.
    static func plain(_ maker: TypedStreamGraphMaker, sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        try Inspect.json(maker.keyedBytes())
    }

    @Test(arguments: [false, true])
    func stringsBecomeTheirText(mutable: Bool) throws {
        var maker = TypedStreamGraphMaker()
        maker.root(maker.string("héllo \u{1F600}", mutable: mutable))
        let json = try Self.plain(maker)
        #expect(json == #"{"root":"héllo 😀"}"#)
        let archive = try TypedStreamLowering.keyedArchive(from: maker.graph, maxObjects: 100).archive
        let expectedChain = mutable ? ["NSMutableString", "NSString", "NSObject"] : ["NSString", "NSObject"]
        #expect(archive.archiveClass(of: archive.top[0].uid)?.claimedChain == expectedChain)
    }

    @Test func anAttributedStringWithOneRunHasItsAttributes() throws {
        var maker = TypedStreamGraphMaker()
        let text = maker.string("Noter test", mutable: true)
        let key = maker.string("__kIMMessagePartAttributeName")
        let dictionary = maker.dictionary([(key, maker.number("i", .signed(0)))])
        maker.root(maker.object(["NSMutableAttributedString", "NSAttributedString"],
                                [("@", [.object(text)]), ("iI", [.signed(1), .unsigned(10)]), ("@", [.object(dictionary)])]))
        let json = try Self.plain(maker)
        #expect(json == #"{"root":[{"text":"Noter test","attributes":{"__kIMMessagePartAttributeName":0}}]}"#)
    }

    /// Run lengths are UTF-16 units (an emoji outside the BMP is two); an index seen before reuses
    /// its dictionary without a new `@` group (one shared object: written once, then `$ref`).
    @Test func runsSplitTheTextByUTF16LengthAndReuseIndexes() throws {
        var maker = TypedStreamGraphMaker()
        let text = maker.string("a\u{1F600}b")
        let part = maker.string("__kIMMessagePartAttributeName")
        let bold = maker.string("__kIMTextBoldAttributeName")
        let first = maker.dictionary([(part, maker.number("i", .signed(0)))])
        let second = maker.dictionary([(part, maker.number("i", .signed(0))), (bold, maker.number("c", .signed(1)))])
        maker.root(maker.object(["NSAttributedString"], [
            ("@", [.object(text)]),
            ("iI", [.signed(1), .unsigned(1)]), ("@", [.object(first)]),
            ("iI", [.signed(2), .unsigned(2)]), ("@", [.object(second)]),
            ("iI", [.signed(1), .unsigned(1)]),
        ]))
        let json = try Self.plain(maker)
        #expect(json == """
            {"root":[{"text":"a","attributes":{"__kIMMessagePartAttributeName":0}},\
            {"text":"😀","attributes":{"__kIMMessagePartAttributeName":0,"__kIMTextBoldAttributeName":true}},\
            {"text":"b","attributes":{"$ref":"/root/0/attributes"}}]}
            """)
    }

    /// Runs that do not cover the text are what the keyed shape check refuses in a keyed archive too.
    @Test func runsShorterThanTheTextAreAShapeViolation() throws {
        var maker = TypedStreamGraphMaker()
        let text = maker.string("abcd")
        let dictionary = maker.dictionary([])
        maker.root(maker.object(["NSAttributedString"], [("@", [.object(text)]), ("iI", [.signed(1), .unsigned(2)]), ("@", [.object(dictionary)]),
                                                         ("iI", [.signed(1), .unsigned(1)])]))
        let report = try Inspect.report(maker.keyedBytes())
        #expect(report.violations.map(\.path) == ["/root"])
        #expect(report.violations.first?.code.rawValue == "archive.invalid_value")
    }

    @Test(arguments: ["NSDictionary", "NSMutableDictionary"])
    func dictionariesKeepTheirEntries(className: String) throws {
        var maker = TypedStreamGraphMaker()
        let pairs = [(maker.string("k1"), maker.number("i", .signed(1))), (maker.string("k2"), maker.string("v"))]
        maker.root(maker.dictionary(pairs, className: className))
        let json = try Self.plain(maker)
        #expect(json == #"{"root":{"k1":1,"k2":"v"}}"#)
    }

    @Test(arguments: [(["NSArray"], "i"), (["NSMutableArray", "NSArray"], "i"), (["NSSet"], "I"), (["NSMutableSet", "NSSet"], "I")])
    func arraysAndSetsKeepTheirElements(chain: [String], countEncoding: String) throws {
        var maker = TypedStreamGraphMaker()
        let elements = [maker.string("a"), maker.number("q", .signed(1)), maker.object(["NSNull"], []), maker.string("b")]
        let count: TypedStreamValue = countEncoding == "i" ? .signed(4) : .unsigned(4)
        maker.root(maker.object(chain, [(countEncoding, [count])] + elements.map { ("@", [.object($0)]) }))
        let json = try Self.plain(maker)
        #expect(json == #"{"root":["a",1,null,"b"]}"#)
    }

    @Test func numbersKeepTheirTypes() throws {
        var maker = TypedStreamGraphMaker()
        let numbers = [
            maker.number("c", .signed(1)), maker.number("c", .signed(0)), maker.number("c", .signed(65)),
            maker.number("i", .signed(42)), maker.number("q", .signed(-9_000_000_000)),
            maker.number("Q", .unsigned(.max)), maker.number("f", .float(3.5)), maker.number("d", .double(100.5)),
        ]
        maker.root(maker.object(["NSArray"], [("i", [.signed(Int64(numbers.count))])] + numbers.map { ("@", [.object($0)]) }))
        let json = try Self.plain(maker)
        #expect(json == #"{"root":[true,false,65,42,-9000000000,18446744073709551615,3.5,100.5]}"#)
    }

    @Test func dataDateAndURLs() throws {
        var maker = TypedStreamGraphMaker()
        let data = maker.object(["NSMutableData", "NSData"], [("i", [.signed(2)]), ("[2c]", [.byteArray([1, 2])])])
        let empty = maker.object(["NSData"], [("i", [.signed(0)])])
        let date = maker.object(["NSDate"], [("d", [.double(21_692_800)])])
        let base = maker.object(["NSURL"], [("c", [.signed(0)]), ("@", [.object(maker.string("https://example.com/dir/"))])])
        let relative = maker.object(["NSURL"], [("c", [.signed(1)]), ("@", [.object(base)]), ("@", [.object(maker.string("page.html"))])])
        let elements = [data, empty, date, base, relative]
        maker.root(maker.object(["NSArray"], [("i", [.signed(5)])] + elements.map { ("@", [.object($0)]) }))
        let json = try Self.plain(maker)
        #expect(json == """
            {"root":["AQI=","","2001-09-09T01:46:40.000Z","https://example.com/dir/","https://example.com/dir/page.html"]}
            """)
    }

    @Test func colorsAreShownAsInKeyedArchives() throws {
        var maker = TypedStreamGraphMaker()
        let rgb = maker.object(["NSColor"], [("c", [.signed(1)]), ("ffff", [.float(1), .float(0.5), .float(0), .float(1)])])
        let white = maker.object(["NSColor"], [("c", [.signed(3)]), ("ff", [.float(0.25), .float(1)])])
        maker.root(maker.object(["NSArray"], [("i", [.signed(2)]), ("@", [.object(rgb)]), ("@", [.object(white)])]))
        let json = try Self.plain(maker)
        #expect(json == """
            {"root":[{"colorSpace":"calibratedRGB","red":1,"green":0.5,"blue":0,"alpha":1},{"colorSpace":"calibratedWhite","white":0.25,"alpha":1}]}
            """)
    }

    /// A class without a layout keeps its positional values, structures spread out, under "0", "1", …
    @Test func otherClassesKeepTheirPositionalValues() throws {
        var maker = TypedStreamGraphMaker()
        let name = maker.string("n")
        maker.root(maker.object(["Z"], [
            ("i", [.signed(-3)]), ("@", [.object(name)]),
            ("{_NSRange=QQ}", [.structure(name: "_NSRange", fields: [.unsigned(1), .unsigned(2)])]),
            ("[3i]", [.array([.signed(7), .signed(8), .signed(9)])]), ("*", [.cString(Array("c".utf8))]), ("#", [.classReference(nil)]),
        ]))
        let json = try Self.plain(maker)
        #expect(json == #"{"root":{"$class":"Z","0":-3,"1":"n","2":1,"3":2,"4":[7,8,9],"5":"c","6":null}}"#)
    }

    /// A Foundation class whose groups do not match its layout is lowered generically, so the keyed
    /// shape check flags it as it flags a mis-shaped keyed object.
    @Test func aMisShapedFoundationObjectIsFlagged() throws {
        var maker = TypedStreamGraphMaker()
        maker.root(maker.object(["NSString"], [("i", [.signed(5)])]))
        let report = try Inspect.report(maker.keyedBytes())
        #expect(report.violations.map(\.path) == ["/root"])
        #expect(report.violations.first?.className == "NSString")
        let json = try Self.plain(maker)
        #expect(json == #"{"root":{"$class":"NSString","0":5}}"#)
    }

    @Test func moreObjectsThanTheLimitAreRefused() {
        var maker = TypedStreamGraphMaker()
        let elements = (0 ..< 5).map { maker.string("\($0)") }
        maker.root(maker.object(["NSArray"], [("i", [.signed(5)])] + elements.map { ("@", [.object($0)]) }))
        // $null, 6 stream objects, and the class records of NSString and NSArray: 9 `$objects` entries.
        for limit in [5, 8] {
            #expect(throws: TypedStreamError(.objectLimitExceeded, offset: 0, "")) {
                try TypedStreamLowering.keyedArchive(from: maker.graph, maxObjects: limit)
            }
        }
        #expect(throws: Never.self) { try TypedStreamLowering.keyedArchive(from: maker.graph, maxObjects: 9) }
    }

    /// Several top-level values are `$top` entries `root`, `1`, …; scalars are inline.
    @Test func severalTopLevelValues() throws {
        var maker = TypedStreamGraphMaker()
        let text = maker.string("x")
        maker.graph.top = [TypedStreamGroup(encoding: "@i", values: [.object(text), .signed(1)], offset: 0),
                           TypedStreamGroup(encoding: "d", values: [.double(2.5)], offset: 0)]
        let json = try Self.plain(maker)
        #expect(json == #"{"root":"x","1":1,"2":2.5}"#)
    }
}
