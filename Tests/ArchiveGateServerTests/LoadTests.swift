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
            ProcessMemory.resetPeak()
            let before = ProcessMemory.peakResidentBytes()
            let reply = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: bomb,
                                                  headers: [("Content-Encoding", "gzip")])
            #expect(reply.status == 413)
            #expect(reply.json["code"] as? String == "request.inflated_too_large")
            let growth = ProcessMemory.peakResidentBytes() - before
            #expect(growth < 128 << 20, "peak RSS grew by \(growth >> 20) MiB")
            let health = try await TestServer.send("/healthz", method: .GET, port: port)
            #expect(health.status == 200)
        }
    }

    @Test func sixtyFourClientsFiftyRequestsEachAllCorrect() async throws {
        let note = try Fixtures.noteArchive()
        let plain = try Fixtures.plainArchive()
        let httpClient = HTTPClient.parallel(64)
        defer { _ = httpClient.shutdown() }
        try await TestServer.run { port in
            let failures = try await withThrowingTaskGroup(of: Int.self) { group in
                for clientIndex in 0..<64 {
                    group.addTask {
                        var failures = 0
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
                                failures += 1
                            }
                        }
                        return failures
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(failures == 0)
        }
    }
}

/// Peak resident memory of this process, from /proc (Linux).
enum ProcessMemory {
    /// Writing 5 to clear_refs resets VmHWM (Linux ≥ 4.0).
    static func resetPeak() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    static func peakResidentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return digits * 1024
        }
        return 0
    }
}
