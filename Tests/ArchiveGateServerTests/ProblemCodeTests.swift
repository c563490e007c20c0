import ArchiveGateCore
import ArchiveGateFetch
@testable import ArchiveGateServer
import Foundation
import Testing

/// The problem-code catalogue: each server code once, each documented with its status, and a
/// problem built from a code answers with the catalogue's status and title.
@Suite struct ProblemCodeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    @Test func serverCodesAreDistinctAndDotted() {
        let raw = ProblemCode.serverCodes.map(\.rawValue)
        #expect(Set(raw).count == raw.count)
        #expect(raw.allSatisfy { $0.split(separator: ".").count == 2 }, "\(raw)")
    }

    /// docs/API.md's errors table is what clients read: every server code has a row with its status.
    @Test func apiDocumentListsEveryServerCodeWithItsStatus() throws {
        let api = try String(contentsOf: Self.root.appendingPathComponent("docs/API.md"), encoding: .utf8)
        for code in ProblemCode.serverCodes {
            let row = "| \(code.response.status.code) | `\(code.rawValue)` |"
            #expect(api.contains(row), "docs/API.md lacks the row \(row)")
        }
    }

    @Test func aProblemTakesItsStatusAndTitleFromTheCatalogue() {
        let problem = ProblemError(.storeDisabled, detail: "off")
        #expect(problem.status == .serviceUnavailable)
        #expect(problem.title == "Service Unavailable")
        #expect(problem.problem(requestId: "r").type == "https://archivegate.dev/problems/store.disabled")
    }

    @Test func codesOfOtherModulesKeepTheirRawValueAndMapping() {
        let truncated = ProblemCode(ArchiveGateError.Code(PropertyListError.Code.truncated))
        #expect(truncated.rawValue == "plist.truncated")
        #expect(truncated.response.status == .unprocessableContent)
        #expect(ProblemCode(ArchiveGateError.Code(PropertyListError.Code.inputTooLarge)).response.status == .contentTooLarge)
        let blocked = ProblemCode(FetchError.Code.blockedDestination)
        #expect(blocked.rawValue == "fetch.blocked_destination")
        #expect(blocked.response.status == .forbidden)
        #expect(blocked != ProblemCode.invalidRequest)
        let unavailable = ProblemCode(FetchError.Code.unavailable)
        #expect(unavailable.rawValue == "fetch.unavailable")
        #expect(unavailable.response.status == .serviceUnavailable)
    }
}
