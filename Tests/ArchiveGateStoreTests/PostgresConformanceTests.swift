import Testing

/// `ResultStoreConformance` against a real PostgreSQL server (a new database per test), started by
/// scripts/postgres-test-server; skipped, with the reason, when that server is absent.
@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipReason), .timeLimit(.minutes(2)))
struct PostgresConformanceTests {
    @Test func thirtyTwoConcurrentWritersAllSucceed() async throws {
        try await ResultStoreConformance.thirtyTwoConcurrentWritersAllSucceed(.postgres)
    }

    @Test func theSameArchiveStoredThroughTwoStoresAtOnceGetsOneId() async throws {
        try await ResultStoreConformance.theSameArchiveStoredThroughTwoStoresAtOnceGetsOneId(.postgres)
    }

    @Test func twoStoresOnOneDatabaseSeeEachOthersWrites() async throws {
        try await ResultStoreConformance.twoStoresOnOneDatabaseSeeEachOthersWrites(.postgres)
    }

    @Test func reOpeningKeepsTheData() async throws {
        try await ResultStoreConformance.reOpeningKeepsTheData(.postgres)
    }

    @Test func closeWaitsForOperationsInFlight() async throws {
        try await ResultStoreConformance.closeWaitsForOperationsInFlight(.postgres)
    }

    @Test func pagesCoverEveryResultOnceNewestFirstEvenWithTiedTimestamps() async throws {
        try await ResultStoreConformance.pagesCoverEveryResultOnceNewestFirstEvenWithTiedTimestamps(.postgres)
    }

    @Test func resultsAddedWhilePagingDoNotShiftLaterPages() async throws {
        try await ResultStoreConformance.resultsAddedWhilePagingDoNotShiftLaterPages(.postgres)
    }

    @Test func anExactlyFullLastPageHasNoNextCursor() async throws {
        try await ResultStoreConformance.anExactlyFullLastPageHasNoNextCursor(.postgres)
    }

    @Test func theLimitIsCappedByTheMaximumPageSize() async throws {
        try await ResultStoreConformance.theLimitIsCappedByTheMaximumPageSize(.postgres)
    }

    @Test func expiredResultsAreInvisibleBeforeThePurge() async throws {
        try await ResultStoreConformance.expiredResultsAreInvisibleBeforeThePurge(.postgres)
    }

    @Test func purgeRemovesExactlyTheExpiredResults() async throws {
        try await ResultStoreConformance.purgeRemovesExactlyTheExpiredResults(.postgres)
    }

    @Test func theResultQuotaRefusesOneResultTooMany() async throws {
        try await ResultStoreConformance.theResultQuotaRefusesOneResultTooMany(.postgres)
    }

    @Test func theByteQuotaCountsReportAndJSONOfUnexpiredResults() async throws {
        try await ResultStoreConformance.theByteQuotaCountsReportAndJSONOfUnexpiredResults(.postgres)
    }

    @Test func summaryAndReportReadWithoutTheJSON() async throws {
        try await ResultStoreConformance.summaryAndReportReadWithoutTheJSON(.postgres)
    }

    @Test func putThenGetReturnsTheSameResult() async throws {
        try await ResultStoreConformance.putThenGetReturnsTheSameResult(.postgres)
    }

    @Test func reportAndJSONComeBackByteIdentical() async throws {
        try await ResultStoreConformance.reportAndJSONComeBackByteIdentical(.postgres)
    }

    @Test func rejectedArchivesAreStoredWithoutJSON() async throws {
        try await ResultStoreConformance.rejectedArchivesAreStoredWithoutJSON(.postgres)
    }

    @Test func anotherTenantsResultIsIndistinguishableFromAMissingOne() async throws {
        try await ResultStoreConformance.anotherTenantsResultIsIndistinguishableFromAMissingOne(.postgres)
    }

    @Test func deleteRemovesOnlyTheNamedResult() async throws {
        try await ResultStoreConformance.deleteRemovesOnlyTheNamedResult(.postgres)
    }

    @Test func malformedIdsAreNotFound() async throws {
        try await ResultStoreConformance.malformedIdsAreNotFound(.postgres)
    }

    @Test func reUploadOfTheSameArchiveReturnsTheExistingResult() async throws {
        try await ResultStoreConformance.reUploadOfTheSameArchiveReturnsTheExistingResult(.postgres)
    }

    @Test func anotherPolicyDigestIsANewResult() async throws {
        try await ResultStoreConformance.anotherPolicyDigestIsANewResult(.postgres)
    }

    @Test func reUploadAfterExpiryStoresAFreshResult() async throws {
        try await ResultStoreConformance.reUploadAfterExpiryStoresAFreshResult(.postgres)
    }

    @Test func invalidInputIsRefused() async throws {
        try await ResultStoreConformance.invalidInputIsRefused(.postgres)
    }

    @Test func healthCheckPassesOnAnOpenStoreAndFailsOnAClosedOne() async throws {
        try await ResultStoreConformance.healthCheckPassesOnAnOpenStoreAndFailsOnAClosedOne(.postgres)
    }

    @Test func theSanitizedArchiveComesBackByteIdenticalThroughItsOwnCallOnly() async throws {
        try await ResultStoreConformance.theSanitizedArchiveComesBackByteIdenticalThroughItsOwnCallOnly(.postgres)
    }

    @Test func askingForTheSanitizedArchiveIsPartOfTheIdempotencyKey() async throws {
        try await ResultStoreConformance.askingForTheSanitizedArchiveIsPartOfTheIdempotencyKey(.postgres)
    }

    @Test func theByteQuotaCountsTheSanitizedArchive() async throws {
        try await ResultStoreConformance.theByteQuotaCountsTheSanitizedArchive(.postgres)
    }

    @Test func theUploadNameIsKeptAndListed() async throws {
        try await ResultStoreConformance.theUploadNameIsKeptAndListed(.postgres)
    }

    @Test func aNameWithControlCharactersOrTooLongIsRefused() async throws {
        try await ResultStoreConformance.aNameWithControlCharactersOrTooLongIsRefused(.postgres)
    }

    @Test func anArchiveNobodyAskedForIsRefused() async throws {
        try await ResultStoreConformance.anArchiveNobodyAskedForIsRefused(.postgres)
    }
}
