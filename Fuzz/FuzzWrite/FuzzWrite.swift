import ArchiveGateCore
import ArchiveGateFuzzSupport

// libFuzzer target: encode (the input as typed JSON, and an archive's own typed JSON) and sanitize
// (under inspection and the strict redacting policy). See `WriteInvariants` for what is checked.

private let permissive = WriteInvariants(policy: FuzzPolicies.inspection)
private let strict = WriteInvariants(policy: FuzzPolicies.strict)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWrite(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    permissive.check(bytes)
    strict.check(bytes)
    return 0
}
