import ArchiveGateCore
import ArchiveGateFuzzSupport

// libFuzzer target: the whole pipeline a request runs — read, keyed-archive structure, policy,
// plain and typed JSON — under two policies: inspection (any class, reject) and a strict one
// (`plist` classes plus a `NotesKit.Note` schema, redact). See `ArchiveInvariants` for what is checked.

private let permissive = ArchiveInvariants(policy: FuzzPolicies.inspection)
private let strict = ArchiveInvariants(policy: FuzzPolicies.strict)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    permissive.check(bytes)
    strict.check(bytes)
    return 0
}
