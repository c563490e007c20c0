import ArchiveGateServer
import AsyncHTTPClient
import Foundation
import Testing

/// Hostile and heavy traffic: a gzip bomb and 64 concurrent clients.
@Suite(.serialized) struct LoadTests {
    /// 1 GiB of zeros gzipped (~1 MiB on the wire) is refused at the 8 MiB archive cap without the
    /// process's peak memory growing anywhere near the inflated size.
    @Test func gzipBombIs413WithBoundedMemory() async throws {
        let bomb = try Fixtures.gzipBomb(mebibytes: 1024)
        #expect(bomb.count < 4 << 20)
        try await TestServer.run { port in
            let before = try ProcessMemory.resetPeak()
            let reply = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: bomb,
                                                  headers: [("Content-Encoding", "gzip")])
            #expect(reply.status == 413)
            #expect(reply.json["code"] as? String == "request.inflated_too_large")
            let growth = try ProcessMemory.peakResidentBytes() - before
            #expect(growth < 128 << 20, "peak RSS grew by \(growth >> 20) MiB")
            let health = try await TestServer.send("/healthz", method: .GET, port: port)
            #expect(health.status == 200)
        }
    }

    /// 64 clients alternating between two tenants: about 32 uploads of each tenant in flight, right
    /// at the default per-tenant cap (32), and a lease lasts until its answer is written, so a 429
    /// tenant.busy is a matter of timing; the caps are lifted here: this checks answers,
    /// `concurrentUploadsAreCapped` checks the caps.
    @Test func sixtyFourClientsFiftyRequestsEachAllCorrect() async throws {
        let note = try Fixtures.noteArchive()
        let plain = try Fixtures.plainArchive()
        let httpClient = HTTPClient.parallel(64)
        defer { _ = httpClient.shutdown() }
        try await TestServer.run(configure: {
            $0.memory.maxConcurrentUploads = 1000
            $0.memory.maxConcurrentUploadsPerTenant = 1000
        }) { port in
            let failures = try await withThrowingTaskGroup(of: [Int].self) { group in
                for clientIndex in 0..<64 {
                    group.addTask {
                        var failures: [Int] = []
                        for request in 0..<50 {
                            // Alternate tenants and archives so answers differ and mix-ups would show.
                            let useBeta = (clientIndex + request) % 2 == 0
                            let body = request % 3 == 0 ? plain : note
                            let reply = try await TestServer.send(
                                "/v1/validate", port: port, key: useBeta ? TestTenant.beta.key : TestTenant.alpha.key, body: body,
                                client: httpClient)
                            let expectedValid = useBeta || body == plain
                            if reply.status != 200 || reply.json["valid"] as? Bool != expectedValid
                                || reply.json["policy"] as? String != (useBeta ? "beta" : "alpha") {
                                failures.append(reply.status)
                            }
                        }
                        return failures
                    }
                }
                return try await group.reduce([], +)
            }
            #expect(failures.isEmpty, "statuses of the wrong answers: \(failures)")
        }
    }
}

/// Peak resident memory of this process, from /proc (Linux). Every read either measures or throws:
/// a memory test that cannot measure must fail, not pass.
enum ProcessMemory {
    struct Unmeasurable: Error, CustomStringConvertible {
        let description: String
    }

    /// Resets the peak (VmHWM) to the current resident size by writing 5 to clear_refs (Linux ≥ 4.0),
    /// checks that the reset took, and returns the new peak.
    static func resetPeak() throws -> Int {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else {
            throw Unmeasurable(description: "cannot open /proc/self/clear_refs to reset the peak")
        }
        defer { try? handle.close() }
        try handle.write(contentsOf: Data("5".utf8))
        let peak = try peakResidentBytes()
        let resident = try statusField("VmRSS:")
        // Right after a reset the peak is the current size (allow for what the read itself touched).
        guard peak <= resident + (16 << 20) else {
            throw Unmeasurable(description: "the peak did not reset: VmHWM \(peak >> 20) MiB, VmRSS \(resident >> 20) MiB")
        }
        return peak
    }

    static func peakResidentBytes() throws -> Int {
        try statusField("VmHWM:")
    }

    /// A `kB` field of /proc/self/status, in bytes.
    private static func statusField(_ name: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            if let kibibytes = line.split(separator: " ").compactMap({ Int($0) }).first { return kibibytes * 1024 }
        }
        throw Unmeasurable(description: "no \(name) line in /proc/self/status")
    }
}
