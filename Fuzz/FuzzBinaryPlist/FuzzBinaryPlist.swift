import ArchiveGateCore
import ArchiveGateFuzzSupport

// libFuzzer target: the binary property-list reader. Input without the `bplist00` magic gets it
// prepended, so every mutation reaches the trailer and object decoding. A successful read must pass
// every structural invariant, and a second read of the same bytes must give the same table.

private let limits = FuzzPolicies.limits.propertyList
private let magic = Array("bplist00".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryPlist(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var bytes = fuzzInput(data, size)
    if !bytes.starts(with: magic) { bytes.insert(contentsOf: magic, at: 0) }
    guard let first = try? PropertyList.read(bytes, limits: limits) else { return 0 }
    require(first.format == .binary, "bplist00 input read as \(first.format)")
    PropertyListInvariants.check(first)
    guard let second = try? PropertyList.read(bytes, limits: limits) else {
        fatalError("fuzz invariant broken: the second read of the same bytes failed")
    }
    PropertyListInvariants.requireIdentical(first, second)
    return 0
}
