import Testing
@testable import ArchiveGateStore

/// The cursor's text form.
@Suite struct ResultCursorTests {
    @Test func aCursorSurvivesItsTextForm() throws {
        let cursor = ResultCursor(createdAtMilliseconds: 1_800_000_000_123, id: ResultID.generate())
        #expect(try ResultCursor(cursor.description) == cursor)
        #expect(cursor.description.utf8.allSatisfy(Base64URL.isAlphabetByte))
    }

    @Test func cursorsThisStoreDidNotIssueAreRefused() {
        let id = ResultID.generate()
        let forged = [
            "", "%%%", "A", String(repeating: "A", count: 200),
            Base64URL.encode(Array("2:5:\(id)".utf8)),   // unknown version
            Base64URL.encode(Array("1:-5:\(id)".utf8)),  // negative time
            Base64URL.encode(Array("1:05:\(id)".utf8)),  // non-canonical number
            Base64URL.encode(Array("1:5:short".utf8)),   // not an id
            Base64URL.encode(Array("1:5:\(id):x".utf8)), // trailing field
            Base64URL.encode(Array("1:5:\(id)".utf8)) + "=",
        ]
        for text in forged {
            #expect(throws: ResultStoreError(.invalidCursor, ""), "\(text)") { try ResultCursor(text) }
        }
    }

    @Test func idsAre128RandomBitsInBase64URL() {
        let ids = (0..<1000).map { _ in ResultID.generate() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { ResultID.isWellFormed($0) && Base64URL.decode($0)?.count == 16 })
    }
}
