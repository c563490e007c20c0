import CompressNIO
import Foundation
import NIOCore

/// A custom secure-coding class. Foundation on Linux archives it as `ArchiveGateServerTests.Note`.
final class Note: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let title: String

    init(title: String) {
        self.title = title
    }

    func encode(with coder: NSCoder) {
        coder.encode(title as NSString, forKey: "title")
    }

    required init?(coder: NSCoder) {
        title = (coder.decodeObject(of: NSString.self, forKey: "title") as String?) ?? ""
    }
}

/// Archives made by Foundation's own NSKeyedArchiver, as a real client would send them.
enum Fixtures {
    static let noteClassName = "ArchiveGateServerTests.Note"

    /// Foundation classes only: every policy here accepts it.
    static func plainArchive() throws -> [UInt8] {
        let root: NSDictionary = ["name": "demo", "count": 3, "tags": ["a", "b"] as NSArray]
        return Array(try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: true))
    }

    /// Foundation classes only, different bytes for every `serial` (distinct stored results).
    static func uniqueArchive(_ serial: Int) throws -> [UInt8] {
        let root: NSDictionary = ["name": "replica test", "serial": serial]
        return Array(try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: true))
    }

    /// An array holding a custom class: the `foundation` policy rejects it, `*` accepts it.
    static func noteArchive() throws -> [UInt8] {
        let root: NSArray = [Note(title: "hello")]
        return Array(try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: true))
    }

    /// gzip of `bytes`.
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        var input = ByteBuffer(bytes: bytes)
        let output = try input.compress(with: .gzip())
        return Array(output.readableBytesView)
    }

    /// gzip of `mebibytes` MiB of zeros, compressed 1 MiB at a time so the plain text never exists.
    static func gzipBomb(mebibytes: Int) throws -> [UInt8] {
        let compressor = CompressionAlgorithm.gzip().compressor
        try compressor.startStream()
        defer { try? compressor.finishStream() }
        let zeros = ByteBuffer(repeating: 0, count: 1 << 20)
        var result: [UInt8] = []
        for _ in 0..<mebibytes {
            var chunk = zeros
            let out = try chunk.compressStream(with: compressor, flush: .sync)
            result.append(contentsOf: out.readableBytesView)
        }
        var empty = ByteBuffer()
        let tail = try empty.compressStream(with: compressor, flush: .finish)
        result.append(contentsOf: tail.readableBytesView)
        return result
    }
}
