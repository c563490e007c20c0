import Foundation
import Testing
@testable import ArchiveGateCore

/// Hostile and malformed typedstreams: each gets its typed error, at the byte where the reader
/// stopped, fast and without allocating what the input claims.
@Suite struct TypedStreamHostileTests {
    /// `04 0B streamtyped`, system version 1000 (`81 E8 03`): 16 bytes.
    static let header: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
    /// A new shared string (`84`, length, bytes).
    static func new(_ text: String) -> [UInt8] { [0x84, UInt8(text.utf8.count)] + Array(text.utf8) }

    static func failure(_ bytes: [UInt8], limits: PropertyListLimits = PropertyListLimits()) -> TypedStreamError? {
        do {
            _ = try TypedStreamReader.read(ByteStorage(bytes), limits: limits)
            return nil
        } catch {
            return error
        }
    }

    static func expectFailure(_ bytes: [UInt8], _ code: TypedStreamError.Code, at offset: Int,
                              limits: PropertyListLimits = PropertyListLimits(), sourceLocation: SourceLocation = #_sourceLocation) {
        let error = failure(bytes, limits: limits)
        #expect(error?.code == code, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.offset == offset, "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    @Test func theHelloStringReads() throws {
        let graph = try TypedStreamReader.read(ByteStorage(TypedStreamTests.helloString), limits: PropertyListLimits())
        #expect(graph.byteOrder == .little && graph.streamerVersion == 4 && graph.systemVersion == 1000)
        #expect(graph.classes == [TypedStreamClass(name: "NSString", version: 1, superclass: 1, offset: 20),
                                  TypedStreamClass(name: "NSObject", version: 0, superclass: nil, offset: 32)])
        #expect(graph.objects == [TypedStreamObject(classIndex: 0, groups: [TypedStreamGroup(encoding: "+", values: [.bytes(Array("hello".utf8))], offset: 45)], offset: 19)])
        #expect(graph.top == [TypedStreamGroup(encoding: "@", values: [.object(0)], offset: 16)])
    }

    @Test func truncationAtEveryByteIsATypedError() throws {
        var files = [TypedStreamTests.helloString]
        if TypedStreamCorpus.isPresent {
            for name in ["crabstep/33162f000e9abad2_AttributedBodyTextOnly", "crabstep/0b1420a70172c6ad_AttributedBodyTextOnly2",
                         "crabstep/a0d9c3e17a164919_0123456789", "crabstep/fa82f5d79dee018c_LongMessage",
                         "finkcommander/398e3885e638f4d9_PackageInfo_objects.nib"] {
                files.append(try TypedStreamCorpus.bytes(name))
            }
        }
        for file in files {
            let whole = try TypedStreamReader.read(ByteStorage(file), limits: PropertyListLimits())
            for length in 0 ..< file.count {
                let prefix = Array(file[..<length])
                do {
                    // A prefix may end between two top-level groups: then it is a shorter stream.
                    let graph = try TypedStreamReader.read(ByteStorage(prefix), limits: PropertyListLimits())
                    #expect(length >= 16 && graph.top.count < whole.top.count, "prefix of \(length) bytes read")
                } catch {
                    #expect(error.code == .truncated && error.offset <= length, "prefix of \(length) bytes: \(error)")
                }
            }
        }
    }

    @Test func aLengthPrefixPastTheEndIsTruncatedWhereItStands() {
        // A '+' value claiming 2^31 - 1 bytes, then two.
        Self.expectFailure(Self.header + Self.new("+") + [0x82, 0xFF, 0xFF, 0xFF, 0x7F, 0x61, 0x62], .truncated, at: 19)
        // A type encoding claiming 2^31 bytes.
        Self.expectFailure(Self.header + [0x84, 0x82, 0x00, 0x00, 0x00, 0x80], .truncated, at: 17)
        // The length fits the input but not the limit.
        Self.expectFailure(Self.header + Self.new("+") + [0x05] + Array("hello".utf8), .lengthLimitExceeded, at: 19,
                           limits: PropertyListLimits(maxStringBytes: 4))
    }

    @Test func aTwoToThe31CountFailsAtTheEndOfInput() {
        // An array of 2^31 ints: refused before one element is read, since each takes a byte at least.
        Self.expectFailure(Self.header + Self.new("[2147483648i]") + [0x01, 0x02], .truncated, at: 31)
        Self.expectFailure(Self.header + Self.new("[2147483648{p=ii}]"), .truncated, at: 36)
        // A byte array of 2^31: over the data limit; a smaller one past the end is truncated.
        Self.expectFailure(Self.header + Self.new("[2147483648c]"), .lengthLimitExceeded, at: 31)
        Self.expectFailure(Self.header + Self.new("[100c]") + Array(repeating: 1, count: 10), .truncated, at: 24)
        // A length in the encoding beyond any real array.
        Self.expectFailure(Self.header + Self.new("[99999999999999999999i]"), .invalidTypeEncoding, at: 16)
    }

    @Test func aClassWhoseSuperclassIsItselfIsRefused() {
        // Object 0, class A (reference 1) whose superclass is reference 1: itself.
        Self.expectFailure(Self.header + Self.new("@") + [0x84, 0x84] + Self.new("A") + [0x00, 0x93], .danglingReference, at: 25)
        // A ← B ← A: B's superclass refers back into the chain being read.
        Self.expectFailure(Self.header + Self.new("@") + [0x84, 0x84] + Self.new("A") + [0x00, 0x84] + Self.new("B") + [0x00, 0x93],
                           .danglingReference, at: 30)
        // An object whose class reference names the object itself.
        Self.expectFailure(Self.header + Self.new("@") + [0x84, 0x92], .danglingReference, at: 20)
    }

    @Test func danglingReferencesAreRefusedWhereTheyStand() {
        // A type encoding by reference before any shared string exists.
        Self.expectFailure(Self.header + [0x92], .danglingReference, at: 16)
        // An object reference to number 3 with nothing introduced.
        Self.expectFailure(Self.header + Self.new("@") + [0x95], .danglingReference, at: 19)
        // A 2-byte reference far past the table.
        Self.expectFailure(Self.header + Self.new("@") + [0x81, 0x00, 0x10], .danglingReference, at: 19)
        // A C string reference that names an object.
        Self.expectFailure(Self.header + Self.new("@") + [0x84, 0x84] + Self.new("A") + [0x00, 0x85] + Self.new("*") + [0x92, 0x86],
                           .danglingReference, at: 29)
    }

    /// An object holding one `@` group whose value is a new object of the same class, `levels` deep;
    /// returns the bytes and the offset of each object.
    static func nested(_ levels: Int) -> (bytes: [UInt8], offsets: [Int]) {
        var bytes = header + new("@")
        var offsets: [Int] = []
        for level in 0 ..< levels {
            offsets.append(bytes.count)
            // The first object introduces class A (reference 1); later ones refer to it; each opens a "@" group (shared string 0).
            bytes += level == 0 ? [0x84, 0x84] + new("A") + [0x00, 0x85, 0x92] : [0x84, 0x93, 0x92]
        }
        bytes += [0x85] + Array(repeating: 0x86, count: levels)
        return (bytes, offsets)
    }

    @Test func nestingPastMaxDepthIsRefusedAtTheObjectThatGoesTooDeep() throws {
        let (bytes, offsets) = Self.nested(20)
        Self.expectFailure(bytes, .depthLimitExceeded, at: offsets[10], limits: PropertyListLimits(maxDepth: 10))
        let graph = try TypedStreamReader.read(ByteStorage(bytes), limits: PropertyListLimits(maxDepth: 20))
        #expect(graph.objects.count == 20)
        #expect(graph.objects[18].groups == [TypedStreamGroup(encoding: "@", values: [.object(19)], offset: offsets[18] + 2)])
        #expect(graph.objects[19].groups.first?.values == [.object(nil)])
    }

    @Test func deepNestingIsReadWithoutRecursion() throws {
        let (bytes, _) = Self.nested(100_000)
        let graph = try TypedStreamReader.read(ByteStorage(bytes), limits: PropertyListLimits(maxDepth: 200_000))
        #expect(graph.objects.count == 100_000)
        #expect(graph.classes.count == 1)
    }

    @Test func anObjectMayReferToItselfWhileBeingRead() throws {
        // Object 0 of class A holds a "@" group whose value is object 0.
        let bytes = Self.header + Self.new("@") + [0x84, 0x84] + Self.new("A") + [0x00, 0x85, 0x92, 0x92, 0x86]
        let graph = try TypedStreamReader.read(ByteStorage(bytes), limits: PropertyListLimits())
        #expect(graph.objects.count == 1)
        #expect(graph.objects[0].groups.first?.values == [.object(0)])
        #expect(graph.top.first?.values == [.object(0)])
    }

    @Test func malformedHeadersAndTagsHaveTheirCodes() {
        Self.expectFailure([], .truncated, at: 0)
        Self.expectFailure([0x03, 0x0B] + Array("streamtyped".utf8) + [0x00], .invalidHeader, at: 0)
        Self.expectFailure([0x04, 0x0A] + Array("streamtype".utf8) + [0x00], .invalidHeader, at: 1)
        Self.expectFailure([0x04, 0x0B] + Array("streamtypes".utf8) + [0x00], .invalidHeader, at: 2)
        // An end-of-object tag at the top level; a nil type encoding; an object whose class is Nil.
        Self.expectFailure(Self.header + [0x86], .unexpectedTag, at: 16)
        Self.expectFailure(Self.header + [0x85], .invalidTypeEncoding, at: 16)
        Self.expectFailure(Self.header + Self.new("@") + [0x84, 0x85], .unexpectedTag, at: 20)
        // An integer tag where an integer belongs but no such tag exists (0x88).
        Self.expectFailure(Self.header + Self.new("i") + [0x88], .unexpectedTag, at: 19)
    }

    @Test func classNamesMustBeUTF8() {
        Self.expectFailure(Self.header + Self.new("@") + [0x84, 0x84, 0x84, 0x02, 0xFF, 0xFE, 0x00, 0x85], .invalidString, at: 21)
    }

    @Test func typeEncodingsAreCheckedAndTheirNestingCapped() {
        let deep = String(repeating: "{a=", count: 17) + "i" + String(repeating: "}", count: 17)
        Self.expectFailure(Self.header + Self.new(deep) + [0x01], .invalidTypeEncoding, at: 16)
        Self.expectFailure(Self.header + Self.new("v") + [0x01], .invalidTypeEncoding, at: 16)
        Self.expectFailure(Self.header + Self.new("{a=i") + [0x01], .invalidTypeEncoding, at: 16)
        Self.expectFailure(Self.header + Self.new("[5{a}]"), .invalidTypeEncoding, at: 16)
        Self.expectFailure(Self.header + [0x84, 0x00], .invalidTypeEncoding, at: 16)
    }

    @Test func theObjectLimitCountsObjectsClassesAndValues() {
        // Three values: within a limit of 3, over a limit of 2 at the third.
        let bytes = Self.header + Self.new("iii") + [0x01, 0x02, 0x03]
        #expect(Self.failure(bytes, limits: PropertyListLimits(maxObjects: 3)) == nil)
        Self.expectFailure(bytes, .objectLimitExceeded, at: 23, limits: PropertyListLimits(maxObjects: 2))
        Self.expectFailure(Self.header, .lengthLimitExceeded, at: 0, limits: PropertyListLimits(maxInputBytes: 15))
    }

    @Test func valuesOfEveryScalarTypeRead() throws {
        let bytes = Self.header + Self.new("cCsSiIqQfdB") + [0xFF, 0xFF, 0x81, 0x00, 0x80, 0x81, 0xFF, 0xFF, 0x82, 0x00, 0x00, 0x00, 0x80,
                                                            0x82, 0xFF, 0xFF, 0xFF, 0xFF, 0x87, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
                                                            0x87, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                                            0x83, 0x00, 0x00, 0xC0, 0x3F, 0x83, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0xC0, 0x01]
            + Self.new("{_NSRange=QQ}[3s]*:#") + [0x05, 0x07, 0x01, 0x02, 0x81, 0x00, 0x01, 0x84, 0x84, 0x03] + Array("abc".utf8)
            + [0x84, 0x04] + Array("copy".utf8) + [0x85]
        let graph = try TypedStreamReader.read(ByteStorage(bytes), limits: PropertyListLimits())
        #expect(graph.top.map(\.values) == [
            [.signed(-1), .unsigned(255), .signed(-32768), .unsigned(65535), .signed(Int64(Int32.min)), .unsigned(UInt64(UInt32.max)),
             .signed(Int64.min), .unsigned(UInt64.max), .float(1.5), .double(-2.5), .signed(1)],
            [.structure(name: "_NSRange", fields: [.unsigned(5), .unsigned(7)]), .array([.signed(1), .signed(2), .signed(256)]),
             .cString(Array("abc".utf8)), .selector(Array("copy".utf8)), .classReference(nil)],
        ])
    }

    @Test func readingTwiceGivesTheSameGraph() throws {
        let bytes = TypedStreamTests.helloString
        #expect(try TypedStreamReader.read(ByteStorage(bytes), limits: PropertyListLimits())
                == TypedStreamReader.read(ByteStorage(bytes), limits: PropertyListLimits()))
    }
}
