import ArchiveGateCore

/// Which BLOBs a database scan decodes: binary property lists (`bplist…`), XML property lists, and
/// NSArchiver typedstreams (reported by name). Any other BLOB (images, protobuf, compressed data)
/// is counted as skipped without being parsed.
enum ArchiveBlob {
    private static let binaryMagic = Array("bplist".utf8)
    private static let xmlStarts = ["<?xml", "<plist", "<!DOCTYPE plist"].map { Array($0.utf8) }

    static func isCandidate(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: binaryMagic) || TypedStream.hasHeader(bytes) { return true }
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < min(bytes.count, 64), [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let rest = bytes[start...]
        return xmlStarts.contains { rest.starts(with: $0) }
    }
}
