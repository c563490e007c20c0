import Testing
@testable import ArchiveGateStore

/// `ResultStoreConformance` against the embedded SQLite store (a temporary file per test).
@Suite(.timeLimit(.minutes(2)))
struct SQLiteConformanceTests {
    /// And the file passes SQLite's `integrity_check` afterwards.
    @Test func thirtyTwoConcurrentWritersAllSucceed() async throws {
        try await ResultStoreConformance.thirtyTwoConcurrentWritersAllSucceed(.sqlite) { store in
            let sqlite = try #require(store as? SQLiteResultStore)
            #expect(try await sqlite.integrityCheck() == ["ok"])
        }
    }

    @Test func theSameArchiveStoredThroughTwoStoresAtOnceGetsOneId() async throws {
        try await ResultStoreConformance.theSameArchiveStoredThroughTwoStoresAtOnceGetsOneId(.sqlite)
    }

    @Test func twoStoresOnOneDatabaseSeeEachOthersWrites() async throws {
        try await ResultStoreConformance.twoStoresOnOneDatabaseSeeEachOthersWrites(.sqlite)
    }

    @Test func reOpeningKeepsTheData() async throws {
        try await ResultStoreConformance.reOpeningKeepsTheData(.sqlite)
    }

    @Test func closeWaitsForOperationsInFlight() async throws {
        try await ResultStoreConformance.closeWaitsForOperationsInFlight(.sqlite)
    }

    @Test func pagesCoverEveryResultOnceNewestFirstEvenWithTiedTimestamps() async throws {
        try await ResultStoreConformance.pagesCoverEveryResultOnceNewestFirstEvenWithTiedTimestamps(.sqlite)
    }

    @Test func resultsAddedWhilePagingDoNotShiftLaterPages() async throws {
        try await ResultStoreConformance.resultsAddedWhilePagingDoNotShiftLaterPages(.sqlite)
    }

    @Test func anExactlyFullLastPageHasNoNextCursor() async throws {
        try await ResultStoreConformance.anExactlyFullLastPageHasNoNextCursor(.sqlite)
    }

    @Test func theLimitIsCappedByTheMaximumPageSize() async throws {
        try await ResultStoreConformance.theLimitIsCappedByTheMaximumPageSize(.sqlite)
    }

    @Test func expiredResultsAreInvisibleBeforeThePurge() async throws {
        try await ResultStoreConformance.expiredResultsAreInvisibleBeforeThePurge(.sqlite)
    }

    @Test func purgeRemovesExactlyTheExpiredResults() async throws {
        try await ResultStoreConformance.purgeRemovesExactlyTheExpiredResults(.sqlite)
    }

    @Test func theResultQuotaRefusesOneResultTooMany() async throws {
        try await ResultStoreConformance.theResultQuotaRefusesOneResultTooMany(.sqlite)
    }

    @Test func theByteQuotaCountsReportAndJSONOfUnexpiredResults() async throws {
        try await ResultStoreConformance.theByteQuotaCountsReportAndJSONOfUnexpiredResults(.sqlite)
    }

    @Test func summaryAndReportReadWithoutTheJSON() async throws {
        try await ResultStoreConformance.summaryAndReportReadWithoutTheJSON(.sqlite)
    }

    @Test func putThenGetReturnsTheSameResult() async throws {
        try await ResultStoreConformance.putThenGetReturnsTheSameResult(.sqlite)
    }

    @Test func reportAndJSONComeBackByteIdentical() async throws {
        try await ResultStoreConformance.reportAndJSONComeBackByteIdentical(.sqlite)
    }

    @Test func rejectedArchivesAreStoredWithoutJSON() async throws {
        try await ResultStoreConformance.rejectedArchivesAreStoredWithoutJSON(.sqlite)
    }

    @Test func anotherTenantsResultIsIndistinguishableFromAMissingOne() async throws {
        try await ResultStoreConformance.anotherTenantsResultIsIndistinguishableFromAMissingOne(.sqlite)
    }

    @Test func deleteRemovesOnlyTheNamedResult() async throws {
        try await ResultStoreConformance.deleteRemovesOnlyTheNamedResult(.sqlite)
    }

    @Test func malformedIdsAreNotFound() async throws {
        try await ResultStoreConformance.malformedIdsAreNotFound(.sqlite)
    }

    @Test func reUploadOfTheSameArchiveReturnsTheExistingResult() async throws {
        try await ResultStoreConformance.reUploadOfTheSameArchiveReturnsTheExistingResult(.sqlite)
    }

    @Test func anotherPolicyDigestIsANewResult() async throws {
        try await ResultStoreConformance.anotherPolicyDigestIsANewResult(.sqlite)
    }

    @Test func reUploadAfterExpiryStoresAFreshResult() async throws {
        try await ResultStoreConformance.reUploadAfterExpiryStoresAFreshResult(.sqlite)
    }

    @Test func invalidInputIsRefused() async throws {
        try await ResultStoreConformance.invalidInputIsRefused(.sqlite)
    }

    @Test func healthCheckPassesOnAnOpenStoreAndFailsOnAClosedOne() async throws {
        try await ResultStoreConformance.healthCheckPassesOnAnOpenStoreAndFailsOnAClosedOne(.sqlite)
    }

    @Test func theSanitizedArchiveComesBackByteIdenticalThroughItsOwnCallOnly() async throws {
        try await ResultStoreConformance.theSanitizedArchiveComesBackByteIdenticalThroughItsOwnCallOnly(.sqlite)
    }

    @Test func askingForTheSanitizedArchiveIsPartOfTheIdempotencyKey() async throws {
        try await ResultStoreConformance.askingForTheSanitizedArchiveIsPartOfTheIdempotencyKey(.sqlite)
    }

    @Test func theByteQuotaCountsTheSanitizedArchive() async throws {
        try await ResultStoreConformance.theByteQuotaCountsTheSanitizedArchive(.sqlite)
    }

    @Test func theUploadNameIsKeptAndListed() async throws {
        try await ResultStoreConformance.theUploadNameIsKeptAndListed(.sqlite)
    }

    @Test func aNameWithControlCharactersOrTooLongIsRefused() async throws {
        try await ResultStoreConformance.aNameWithControlCharactersOrTooLongIsRefused(.sqlite)
    }

    @Test func anArchiveNobodyAskedForIsRefused() async throws {
        try await ResultStoreConformance.anArchiveNobodyAskedForIsRefused(.sqlite)
    }
}
