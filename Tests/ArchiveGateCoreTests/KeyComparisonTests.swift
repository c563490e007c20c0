import Foundation
import Testing
@testable import ArchiveGateCore

/// The key comparisons' fast paths (packed ASCII/UTF-8 keys read from the tag and payload word,
/// short runs compared as words) against the general path they stand in for: UTF-16 spellings,
/// keys stored in a side table, keys met as two objects, and XML input.
@Suite struct KeyComparisonTests {
    typealias Raw = BinaryPropertyListWriter.RawBuilder

    /// A UTF-16 string object (marker 0x6) for `text`, as a writer that never uses ASCII would.
    static func utf16(_ text: String) -> [UInt8] {
        let units = Array(text.utf16)
        return Raw.header(0x60, count: UInt64(units.count)) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// A keyed archive whose one instance has the keys `instanceKeys` (raw string objects, values
    /// `$class` → the record, any other → the integer 7), written with every key object anew.
    static func archive(instanceKeys: [[UInt8]], classKeyPosition: Int) -> [UInt8] {
        var raw = Raw()
        let rootKeys = ["$archiver", "$objects", "$top", "$version"].map { raw.append(.string($0)) }
        let archiver = raw.append("NSKeyedArchiver")
        let version = raw.append(100_000)
        let null = raw.append("$null")
        let rootName = raw.append("root")
        let rootUID = raw.append(.uid(1))
        let recordUID = raw.append(.uid(2))
        let seven = raw.append(7)
        let keys = instanceKeys.map { raw.append(raw: $0) }
        let values = keys.indices.map { $0 == classKeyPosition ? recordUID : seven }
        let instance = raw.dictionary(keys: keys, values: values)
        let className = raw.append("Thing")
        let recordKeys = [raw.append("$classname"), raw.append("$classes")]
        let chain = raw.array([className])
        let record = raw.dictionary(keys: recordKeys, values: [className, chain])
        let objects = raw.array([null, instance, record])
        let top = raw.dictionary(keys: [rootName], values: [rootUID])
        let root = raw.dictionary(keys: rootKeys, values: [archiver, objects, top, version])
        return raw.bytes { $0.topObject = root }
    }

    @Test func shortRunsCompareByteForByte() {
        for count in 0 ... 40 {
            let base = (0 ..< count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            base.withUnsafeBufferPointer { left in
                var same = base
                #expect(same.withUnsafeBufferPointer { memoryEquals(left.baseAddress!, $0.baseAddress, count) })
                for position in 0 ..< count {
                    same = base
                    same[position] ^= 0x20
                    #expect(!same.withUnsafeBufferPointer { memoryEquals(left.baseAddress!, $0.baseAddress, count) },
                            "a difference at byte \(position) of \(count)")
                }
            }
        }
    }

    @Test func literalLookupsMatchEverySpellingAndTier() throws {
        let long = String(repeating: "k", count: 70)  // 70 bytes: past the packed tier's 63
        var raw = Raw()
        let keys = [raw.append(raw: Self.utf16("$class")), raw.append(.string(long)), raw.append("NS.keys"), raw.append("NS.kexs")]
        let values = [raw.append(1), raw.append(2), raw.append(3), raw.append(4)]
        let dictionary = raw.dictionary(keys: keys, values: values)
        let plist = try PropertyList.read(raw.bytes { $0.topObject = dictionary })
        let root = plist.root
        #expect(plist.kind(of: Int(keys[0])) == .utf16String)
        #expect(plist.int64(at: try #require(plist.dictionaryValue(root, forKey: "$class"))) == 1)
        #expect(plist.dictionaryPairIndex(root, forKey: "$clasS") == nil)
        #expect(plist.objects.packedByteString(at: Int(keys[1])) == nil)  // a side-table string
        #expect(plist.stringEquals(Int(keys[1]), "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"))
        #expect(!plist.stringEquals(Int(keys[1]), "kkkk"))
        #expect(plist.int64(at: try #require(plist.dictionaryValue(root, forKey: "NS.keys"))) == 3)
        #expect(plist.dictionaryPairIndex(root, forKey: "NS.kexs") == 3)
        #expect(plist.dictionaryValue(root, forKey: "NS.key") == nil)
        #expect(!plist.stringEquals(Int(values[0]), "1"))  // not a string
    }

    /// UTF-16 strings are compared with UTF-8 text unit by unit (no `String` built): every width
    /// of UTF-8 sequence, surrogate pairs, and texts that differ only in length or in one byte.
    @Test func utf16StringsCompareWithUTF8TextAsStringsDo() throws {
        let texts = ["$null", "", "a", "naïve", "日本語", "emoji🙂", "ü", "$nul", "$nulll", "naïvf", "日本誤", "emoji🙃", "🙂"]
        var raw = Raw()
        let objects = texts.map { raw.append(raw: Self.utf16($0)) }
        let array = raw.array(objects)
        let plist = try PropertyList.read(raw.bytes { $0.topObject = array })
        for (object, text) in zip(objects, texts) {
            #expect(plist.kind(of: Int(object)) == .utf16String || text.isEmpty)
            for other in texts {
                let equal = Array(other.utf8).withUnsafeBufferPointer { plist.stringEquals(Int(object), utf8: $0) }
                #expect(equal == (text == other), "UTF-16 '\(text)' against UTF-8 '\(other)'")
            }
        }
        #expect(!plist.stringEquals(Int(objects[0]), "$nulx"))
        #expect(plist.stringEquals(Int(objects[0]), "$null"))
    }

    @Test func duplicateKeysAreFoundWhateverTheyAreStoredAs() {
        func problem(_ keys: [[UInt8]]) -> String? {
            var raw = Raw()
            let keyObjects = keys.map { raw.append(raw: $0) }
            let one = raw.append(1)
            let dictionary = raw.dictionary(keys: keyObjects, values: keyObjects.map { _ in one })
            do {
                _ = try PropertyList.read(raw.bytes { $0.topObject = dictionary })
                return nil
            } catch {
                return error.code.rawValue
            }
        }
        func ascii(_ text: String) -> [UInt8] { Raw.header(0x50, count: UInt64(text.utf8.count)) + Array(text.utf8) }
        let long = String(repeating: "x", count: 80)
        #expect(problem([ascii("NS.keys"), ascii("NS.kexs"), ascii("$class")]) == nil)  // equal lengths, different keys
        #expect(problem([ascii("a"), ascii("NS.keys"), ascii("NS.keys")]) == "plist.duplicate_key")  // two objects, one key
        #expect(problem([ascii("$class"), ascii("b"), Self.utf16("$class")]) == "plist.duplicate_key")  // ASCII vs UTF-16
        #expect(problem([Self.utf16("$class"), ascii("$class")]) == "plist.duplicate_key")
        #expect(problem([ascii(long), ascii(long + "y")]) == nil)
        #expect(problem([ascii("q"), ascii(long), ascii(long)]) == "plist.duplicate_key")  // side-table strings
        #expect(problem([Self.utf16("é"), Self.utf16("e\u{301}")]) == nil)  // canonically equivalent: two keys
        #expect(problem([Self.utf16("é"), Self.utf16("é")]) == "plist.duplicate_key")
    }

    @Test func xmlDuplicateKeysAreStillRefused() {
        let text = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>NS.keys</key><integer>1</integer>"
            + "<key>é</key><integer>2</integer><key>NS.keys</key><integer>3</integer></dict></plist>"
        #expect(throws: PropertyListError(.duplicateKey, "")) { try PropertyList.read(Array(text.utf8)) }
        let distinct = text.replacingOccurrences(of: "<key>NS.keys</key><integer>3", with: "<key>e\u{301}</key><integer>3")
        #expect((try? PropertyList.read(Array(distinct.utf8))) != nil)
    }

    /// Empty keys (length 0: the fast paths' edge) are one key in any spelling and found by an
    /// empty literal, in XML (whose text storage then holds no key bytes) and binary input.
    @Test func emptyKeysCompareWithoutStorage() throws {
        let twice = "<plist version=\"1.0\"><dict><key></key><integer>1</integer><key></key><integer>2</integer></dict></plist>"
        #expect(throws: PropertyListError(.duplicateKey, "")) { try PropertyList.read(Array(twice.utf8)) }
        let once = try PropertyList.read(Array("<plist version=\"1.0\"><dict><key></key><integer>1</integer></dict></plist>".utf8))
        #expect(once.int64(at: try #require(once.dictionaryValue(once.root, forKey: ""))) == 1)
        #expect(once.dictionaryValue(once.root, forKey: "a") == nil)
        var raw = Raw()
        let keys = [raw.append(""), raw.append(raw: Self.utf16(""))]
        let one = raw.append(1)
        let dictionary = raw.dictionary(keys: keys, values: [one, one])
        #expect(throws: PropertyListError(.duplicateKey, "")) { try PropertyList.read(raw.bytes { $0.topObject = dictionary }) }
    }

    @Test func aUTF16ClassKeyClassifiesTheInstance() throws {
        for position in 0 ..< 3 {
            var keys = [Self.utf16("name"), Raw.header(0x50, count: 4) + Array("size".utf8)]
            keys.insert(Self.utf16("$class"), at: position)
            let archive = try KeyedArchive(plist: PropertyList.read(Self.archive(instanceKeys: keys, classKeyPosition: position)))
            #expect(archive.archiveClass(of: 1)?.name == "Thing")
            #expect(archive.isClassPair(1, pair: position))
            #expect(archive.field(1, "$class") == archive.plist.dictionaryValue(archive.plistIndex(of: 1), pair: position))
        }
    }

    @Test func reservedKeysBesideClassAreRefusedInEitherSpelling() {
        for reserved in [Self.utf16("$evil"), Raw.header(0x50, count: 5) + Array("$evil".utf8), Self.utf16("$classes")] {
            let bytes = Self.archive(instanceKeys: [Raw.header(0x50, count: 6) + Array("$class".utf8), reserved], classKeyPosition: 0)
            #expect(throws: ArchiveError(.reservedKey, path: "", "")) { try KeyedArchive(plist: PropertyList.read(bytes)) }
        }
        let generated = Self.archive(instanceKeys: [Self.utf16("$0"), Self.utf16("$class")], classKeyPosition: 1)
        #expect((try? KeyedArchive(plist: PropertyList.read(generated))) != nil)
        let escaped = Self.archive(instanceKeys: [Self.utf16("$$evil"), Self.utf16("$class")], classKeyPosition: 1)
        #expect((try? KeyedArchive(plist: PropertyList.read(escaped))) != nil)
    }
}

/// Schema keys compare by UTF-16 code units, as Foundation's `decodeObjectForKey:` does (issue 31):
/// `café` (U+00E9) is not satisfied by an archive key `cafe\u{301}`, even when `required`.
@Suite struct SchemaKeyCodeUnitTests {
    static func archive(key: String) -> [UInt8] {
        var builder = KeyedArchiveBuilder()
        let note = builder.object(class: builder.classRecord("Note"), fields: [key: .uid(builder.add("x"))])
        builder.setTop("root", note)
        return builder.binary()
    }

    static let policy = Inspect.policy(#"{"allow": ["foundation", "Note"], "root": ["Note"], "classes": {"Note": {"keys": {"café": "NSString"}, "required": ["café"], "unknownKeys": "reject"}}}"#)

    @Test func aCanonicallyEquivalentKeyIsAnotherKey() throws {
        let exact = try Inspect.report(Self.archive(key: "caf\u{E9}"), policy: Self.policy)
        #expect(exact.valid, "\(exact.violations)")
        let decomposed = try Inspect.report(Self.archive(key: "cafe\u{301}"), policy: Self.policy)
        #expect(!decomposed.valid)
        #expect(Set(decomposed.violations.map(\.code.rawValue)) == ["policy.unknown_key", "policy.missing_required_key"])
    }

    @Test func sanitizeDropsTheLookAlikeKeyUnderReject() throws {
        let redact = Inspect.policy(#"{"allow": ["foundation", "Note"], "classes": {"Note": {"keys": {"café": "NSString"}, "unknownKeys": "reject"}}, "onViolation": "redact"}"#)
        let result = try ArchiveSanitizer(inspector: ArchiveInspector(policy: redact)).sanitize(Self.archive(key: "cafe\u{301}"))
        let output = try KeyedArchive(plist: PropertyList.read(try #require(result.archive)))
        #expect(output.objectCount == 3)  // $null, the Note without its key, the class record
        #expect(output.field(1, "$class") != nil)
        #expect(output.plist.count(of: output.plistIndex(of: 1)) == 1)
    }

    @Test func typedJSONKeepsBothSpellingsAsTwoKeys() throws {
        var keys = Set<String>()
        var spellings: [String] = []
        #expect(TypedJSONReader.insertKey("caf\u{E9}", into: &keys, spellings: &spellings))
        #expect(TypedJSONReader.insertKey("cafe\u{301}", into: &keys, spellings: &spellings))
        #expect(!TypedJSONReader.insertKey("cafe\u{301}", into: &keys, spellings: &spellings))
        #expect(!TypedJSONReader.insertKey("caf\u{E9}", into: &keys, spellings: &spellings))
    }
}
