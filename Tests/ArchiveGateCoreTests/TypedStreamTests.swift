import ArchiveGateCore
import Testing

/// Old `NSArchiver` output is read as a typedstream, not called "not a property list".
@Suite struct TypedStreamTests {
    /// `[NSArchiver archivedDataWithRootObject:@"hello"]` as macOS writes it (hand-copied bytes:
    /// corelibs Foundation has no NSArchiver): header, then class chain NSString ← NSObject, then "+hello".
    static let helloString: [UInt8] = [
        0x04, 0x0B, 0x73, 0x74, 0x72, 0x65, 0x61, 0x6D, 0x74, 0x79, 0x70, 0x65, 0x64, 0x81, 0xE8, 0x03,
        0x84, 0x01, 0x40, 0x84, 0x84, 0x84, 0x08, 0x4E, 0x53, 0x53, 0x74, 0x72, 0x69, 0x6E, 0x67, 0x01,
        0x84, 0x84, 0x08, 0x4E, 0x53, 0x4F, 0x62, 0x6A, 0x65, 0x63, 0x74, 0x00, 0x85, 0x84, 0x01, 0x2B,
        0x05, 0x68, 0x65, 0x6C, 0x6C, 0x6F, 0x86,
    ]

    /// Read and lowered: the keyed pipeline shows the string.
    @Test func typedstreamInputIsReadAndLowered() throws {
        #expect(TypedStream.hasHeader(Self.helloString))
        let inspection = try ArchiveInspector(policy: .foundation).convert(Self.helloString, mode: .plain)
        #expect(inspection.json.map { String(decoding: $0, as: UTF8.self) } == #"{"root":"hello"}"#)
    }

    /// A stream that is not readable is a typedstream error, not "not a property list".
    @Test func anUnreadableTypedstreamHasItsOwnError() {
        let bytes = [0x04, 0x0B] + Array("typedstream".utf8) + [0x81, 0x03]
        #expect(TypedStream.hasHeader(bytes))
        #expect(throws: ArchiveGateError.typedStream(TypedStreamError(.truncated, offset: 0, ""))) {
            try ArchiveInspector(policy: .foundation).validate(bytes)
        }
    }

    @Test func otherNonPlistInputIsStillNotAPropertyList() {
        // A truncated header is not a typedstream.
        let bytes: [UInt8] = [0x04, 0x0B] + Array("streamtype".utf8)
        #expect(!TypedStream.hasHeader(bytes))
        #expect(throws: ArchiveGateError.propertyList(PropertyListError(.notAPropertyList, ""))) {
            try ArchiveInspector(policy: .foundation).validate(bytes)
        }
    }
}
