import HTTPTypes

/// `/v1/archives` problems of the server's own; the store's errors map in
/// `ResultStoreError+HTTPResponseError.swift`.
extension ProblemError {
    /// Unknown id, another tenant's id and an expired result all get this very document (only the
    /// request id differs), so a tenant cannot learn whether someone else's id exists.
    static let resultNotFound = ProblemError(.resultNotFound, detail: "No stored result with this id.")

    /// The result exists but the policy rejected its archive, so only its report was stored.
    static let resultHasNoJSON = ProblemError(
        .resultHasNoJSON,
        detail: "The policy rejected this archive, so no JSON was stored; GET the result itself for its report.")

    /// The result exists but keeps no sanitized archive.
    static let resultHasNoArchive = ProblemError(
        .resultHasNoArchive,
        detail: "This result keeps no sanitized archive: it was stored without ?sanitize=true, or the policy rejected the archive.")

    static let storeDisabled = ProblemError(
        .storeDisabled,
        detail: "This server runs without a result store (store.enabled is false).")
}
