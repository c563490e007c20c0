import ArchiveGateCore
import ArchiveGateFuzzSupport

// libFuzzer target: the XML property-list reader. Input that would not be taken for XML (first
// byte after an optional BOM and whitespace is not `<`) gets a `<plist version="1.0">` prefix, so
// mutations of element text still reach the XML scanner rather than stopping at format sniffing.
// A successful read must pass every structural invariant and be reproducible.

private let limits = FuzzPolicies.limits.propertyList
private let prefix = Array(#"<plist version="1.0">"#.utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLPlist(_ data: UnsafeRawPointer?, _ size: Int) -> CInt {
    var bytes = fuzzInput(data, size)
    if !looksLikeMarkup(bytes) { bytes.insert(contentsOf: prefix, at: 0) }
    guard let first = try? PropertyList.read(bytes, limits: limits) else { return 0 }
    require(first.format == .xml, "XML input read as \(first.format)")
    PropertyListInvariants.check(first)
    guard let second = try? PropertyList.read(bytes, limits: limits) else {
        fatalError("fuzz invariant broken: the second read of the same bytes failed")
    }
    PropertyListInvariants.requireIdentical(first, second)
    return 0
}

/// The reader's own sniffing rule: optional UTF-8 BOM, XML whitespace, then `<`.
private func looksLikeMarkup(_ bytes: [UInt8]) -> Bool {
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    return index < bytes.count && bytes[index] == UInt8(ascii: "<")
}
