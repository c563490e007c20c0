import ArchiveGateCore
import ArchiveGateFuzzSupport

// libFuzzer target: the typedstream reader and its typed JSON. Input without a typedstream header
// gets the little-endian one prepended, so every mutation reaches the groups. A successful read must
// pass every structural invariant and render as valid JSON, and a second read of the same bytes
// must give the same graph; a failed one must fail the same way twice.

private let limits = FuzzPolicies.limits.propertyList
private let header: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTypedStream(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var bytes = fuzzInput(data, size)
    if !TypedStream.hasHeader(bytes) { bytes.insert(contentsOf: header, at: 0) }
    let first: TypedStreamGraph
    do {
        first = try TypedStreamReader.read(ByteStorage(bytes), limits: limits)
    } catch {
        require(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error.offset) outside \(bytes.count) bytes: \(error)")
        do {
            _ = try TypedStreamReader.read(ByteStorage(bytes), limits: limits)
            fatalError("fuzz invariant broken: the second read succeeded where the first failed with \(error)")
        } catch let second {
            require(second.code == error.code && second.offset == error.offset, "two reads failed differently: \(error) / \(second)")
        }
        return 0
    }
    TypedStreamInvariants.check(first, inputCount: bytes.count)
    guard let second = try? TypedStreamReader.read(ByteStorage(bytes), limits: limits) else {
        fatalError("fuzz invariant broken: the second read of the same bytes failed")
    }
    require(first == second, "two reads of the same bytes gave different graphs")
    if let json = try? TypedStreamJSON.render(first, redacted: [], limits: FuzzPolicies.limits) {
        require(JSONSyntax.isValid(json), "the typed JSON is not valid JSON")
    }
    return 0
}
