import ArchiveGateCore
@testable import ArchiveGateServer
import ArchiveGateTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The request pipeline (`DecodePipeline`): every decoding and writing endpoint reserves from the
/// memory budget, bounds its output while it is written, and answers the amplification cap with
/// its own typed problem.
@Suite struct DecodePipelineTests {
    /// An NSArray of `references` distinct objects that all share one `mebibytes` string in the
    /// binary plist (the writer uniques equal strings): ~1 MiB on disk, a few KB gzipped.
    static func sharedStringArchive(mebibytes: Int = 1, references: Int) -> [UInt8] {
        let text = PropertyListValue.string(String(repeating: "a", count: mebibytes << 20))
        var objects: [PropertyListValue] = ["$null", .dictionary(["NS.objects": .array((0..<references).map { .uid(UInt32($0 + 2)) }),
                                                                   "$class": .uid(UInt32(references + 2))])]
        objects += Array(repeating: text, count: references)
        objects.append(.dictionary(["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]))
        return BinaryPropertyListWriter.write(.dictionary(["$version": 100_000, "$archiver": "NSKeyedArchiver",
                                                           "$top": .dictionary(["root": .uid(1)]), "$objects": .array(objects)]))
    }

    /// The issue's upload: sanitize writes the shared string once (binary stays small), and the XML
    /// form, which must repeat it, is refused with the typed amplification problem — within a
    /// 64 MiB budget that is whole again afterwards.
    @Test func sanitizeOfASharedStringWritesItOnceAndXMLIsStoppedByTheCap() async throws {
        let archive = Self.sharedStringArchive(references: 1_000)
        #expect(archive.count < 2 << 20)
        let gzip = try Fixtures.gzip(archive)
        #expect(gzip.count < 16 << 10)
        try await TestServer.run(configure: { $0.memory.budgetBytes = 64 << 20; $0.memory.tenantShare = 1 }) { port in
            let binary = try await TestServer.send("/v1/sanitize", port: port, key: TestTenant.alpha.key, body: gzip,
                                                   headers: [("Content-Encoding", "gzip")])
            #expect(binary.status == 200, "\(binary.text.prefix(300))")
            #expect(binary.body.count < archive.count + (64 << 10))
            for _ in 0..<3 {
                let xml = try await TestServer.send("/v1/sanitize?format=xml", port: port, key: TestTenant.alpha.key, body: gzip,
                                                    headers: [("Content-Encoding", "gzip")])
                #expect(xml.status == 422, "\(xml.text.prefix(300))")
                #expect(xml.json["code"] as? String == "output.amplification_exceeded")
            }
        }
    }

    /// The writer stops at the allowance, not after the whole output: the gate is never asked for
    /// more than the allowance plus one string and one step, whatever the full XML would be (1 GiB).
    @Test func theXMLWriterStopsAtTheGateNotAfterwards() throws {
        let archive = Self.sharedStringArchive(references: 1_000)
        let gate = RecordingGate(refusingAbove: 4 << 20)
        var sanitizer = ArchiveSanitizer(inspector: ArchiveInspector(policy: .inspection))
        sanitizer.outputGate = gate
        #expect(throws: ArchiveGateError.self) { try sanitizer.sanitize(archive, format: .xml) }
        #expect(gate.largestAsked > 4 << 20)
        #expect(gate.largestAsked <= (4 << 20) + (1 << 20) + OutputBound.step + 4096)
    }

    /// encode reserves its working set: a typed JSON upload the budget cannot carry is refused
    /// (before, encode reserved nothing and 8 × 16 MB uploads took 747 MB).
    @Test func encodeIsBudgeted() async throws {
        // An archive the policy accepts (encode checks what it wrote): 300,000 references to one string.
        let elements = (0..<300_000).map { _ in #"{"$uid":3}"# }.joined(separator: ",")
        let json = Array(#"{"$archiver":"NSKeyedArchiver","$version":100000,"$top":{"root":{"$uid":1}},"$objects":["$null",{"$class":{"$uid":2},"NS.objects":[\#(elements)]},{"$classname":"NSArray","$classes":["NSArray","NSObject"]},"x"]}"#.utf8)
        try await TestServer.run(configure: { $0.memory.budgetBytes = 8 << 20; $0.memory.tenantShare = 1 }) { port in
            let reply = try await TestServer.send("/v1/encode", port: port, key: TestTenant.beta.key, body: json, contentType: "application/json")
            #expect(reply.status == 503, "\(reply.text.prefix(300))")
            #expect(reply.json["code"] as? String == "server.busy")
        }
        try await TestServer.run(configure: { $0.memory.budgetBytes = 256 << 20 }) { port in
            let reply = try await TestServer.send("/v1/encode", port: port, key: TestTenant.beta.key, body: json, contentType: "application/json")
            #expect(reply.status == 200, "\(reply.text.prefix(300))")
        }
    }

    /// encode reads its body as archive uploads are read: gzip inflated, br 415, a short body 400.
    @Test func encodeHonoursContentEncodingAndTruncation() async throws {
        let archive = try Fixtures.plainArchive()
        try await TestServer.run { port in
            let typed = try await TestServer.send("/v1/convert?mode=typed", port: port, key: TestTenant.alpha.key, body: archive)
            let plain = try await TestServer.send("/v1/encode", port: port, key: TestTenant.alpha.key, body: typed.body, contentType: "application/json")
            #expect(plain.status == 200)
            let gzipped = try await TestServer.send("/v1/encode", port: port, key: TestTenant.alpha.key, body: try Fixtures.gzip(typed.body),
                                                    contentType: "application/json", headers: [("Content-Encoding", "gzip")])
            #expect(gzipped.status == 200, "\(gzipped.text.prefix(300))")
            #expect(gzipped.body == plain.body)
            let brotli = try await TestServer.send("/v1/encode", port: port, key: TestTenant.alpha.key, body: typed.body,
                                                   contentType: "application/json", headers: [("Content-Encoding", "br")])
            #expect(brotli.status == 415)
            #expect(brotli.json["code"] as? String == "request.unsupported_encoding")

            let head = "POST /v1/encode HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(TestTenant.alpha.key)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(typed.body.count)\r\n\r\n"
            let request = Array(head.utf8) + typed.body.prefix(typed.body.count / 2)
            // Blocking reads wait off the cooperative pool (`offCooperativePool`), never on a
            // thread the server under test may need to answer.
            let short = try await offCooperativePool { () throws -> String in
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                return connection.replyAfterHalfClose(request)
            }
            #expect(short.hasPrefix("HTTP/1.1 400"), "\(short.prefix(200))")
        }
    }

    /// A redact cascade is bounded by the pipeline: the sanitizer the server runs follows at most
    /// `maximumSanitizeCascade` rounds, not the core's 64.
    @Test func theSanitizeCascadeIsBoundedInThePipeline() async throws {
        #expect(DecodePipeline.maximumSanitizeCascade < ArchiveSanitizer.defaultMaximumCascade)
        let budget = MemoryBudget(limits: .init(totalBytes: 64 << 20, tenantBytes: 64 << 20, maxUploads: 4, maxUploadsPerTenant: 4))
        let lease = try budget.admit(tenant: "t")
        let pipeline = DecodePipeline(lease: lease, cap: AmplificationCap(factor: 16))
        let result = try await pipeline.sanitize(try Fixtures.plainArchive(), with: ArchiveInspector(policy: .inspection))
        #expect(result.archive != nil)
        // Only the kept output is held; the decode estimate went back.
        #expect(lease.bytes == result.archive?.count)
        lease.release()
        #expect(budget.current.bytes == 0)
    }

    /// The decode estimate is visible: `/readyz` states the budget, the per-object factor and the
    /// largest archive a tenant can convert; with a 512 MiB budget that is past the default
    /// `limits.maxArchiveBytes` (64 MiB).
    @Test func readyzShowsTheEstimateAndTheDefaultBudgetCarriesTheLargestArchive() async throws {
        try await TestServer.run(configure: { $0.memory.budgetBytes = 512 << 20 }) { port in
            let ready = try await TestServer.send("/readyz", method: .GET, port: port)
            let memory = ready.json["memory"] as? [String: Any] ?? [:]
            #expect(memory["budgetBytes"] as? Int == 512 << 20)
            #expect(memory["decodeBytesPerObject"] as? Int == DecodeEstimate.bytesPerObject)
            let largest = memory["largestConvertibleArchiveBytes"] as? Int ?? 0
            #expect(largest >= ConfigurationDefaults.limitsMaxArchiveBytes.defaultValue, "\(ready.text)")
        }
    }

    /// The default share of a budget converts an archive of large values up to a quarter of the
    /// budget: scaled down 8× (the estimate is linear), a 64 MiB budget converts a 7.5 MiB archive as
    /// the default 512 MiB budget converts a 60 MiB one. Before, the whole 16× output allowance
    /// was reserved up front and nothing over ~1/38 of the budget converted.
    @Test func aDefaultShareConvertsAnArchiveOfAnEighthOfTheBudget() async throws {
        let archive = Self.sharedStringArchive(mebibytes: 7, references: 1) + []
        #expect(archive.count >= 7 << 20)
        try await TestServer.run(configure: { $0.memory.budgetBytes = 64 << 20 }) { port in
            let reply = try await TestServer.send("/v1/convert", port: port, key: TestTenant.beta.key, body: archive)
            #expect(reply.status == 200, "\(reply.text.prefix(300))")
            #expect(reply.body.count > 7 << 20)
        }
    }
}

/// Admits up to a size and records the largest size it was asked about.
final class RecordingGate: OutputGate, @unchecked Sendable {
    let limit: Int
    private(set) var largestAsked = 0

    init(refusingAbove limit: Int) {
        self.limit = limit
    }

    func admit(_ bytes: Int) -> Bool {
        largestAsked = max(largestAsked, bytes)
        return bytes <= limit
    }
}

extension RawConnection {
    /// Sends `bytes`, closes the sending side (the body ends early) and reads the answer's start.
    func replyAfterHalfClose(_ bytes: [UInt8]) -> String {
        _ = send(bytes)
        shutdown(descriptor, Int32(SHUT_WR))
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 30_000) > 0 else { return "" }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
    }
}
