import ArchiveGateServer
import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

/// The real `archivegate serve` binary, SIGTERMed while requests are in flight.
@Suite struct GracefulShutdownTests {
    @Test func sigtermDrainsAcceptedRequestsAndExitsZero() async throws {
        let server = try ServerProcess.start()
        defer { server.terminateIfRunning() }
        let port = server.port
        let archive = try Fixtures.plainArchive()
        let client = HTTPClient.parallel(16)
        defer { _ = client.shutdown() }

        // Eight uploads whose heads and first halves are sent before the signal and whose rest is
        // sent after it: they were accepted, so they must complete with 200.
        let half = archive.count / 2
        let socketsBefore = try await server.settledSocketCount()
        var continuations: [AsyncStream<ByteBuffer>.Continuation] = []
        var uploads: [Task<Int, any Error>] = []
        for _ in 0..<8 {
            let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream()
            continuation.yield(ByteBuffer(bytes: archive[..<half]))
            continuations.append(continuation)
            uploads.append(Task {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/validate")
                request.method = .POST
                request.headers.add(name: "Authorization", value: "Bearer \(TestTenant.alpha.key)")
                request.headers.add(name: "Content-Type", value: "application/octet-stream")
                request.body = .stream(stream, length: .known(Int64(archive.count)))
                let response = try await client.execute(request, timeout: .seconds(120))
                _ = try await response.body.collect(upTo: 1 << 20)
                return Int(response.status.code)
            })
        }
        // "Accepted before the signal" must be a fact, not a guess from a sleep: wait until the server
        // process holds all eight connections (on a loaded CI machine that can take a while).
        let deadline = ContinuousClock.now + .seconds(30)
        while server.openSocketCount() < socketsBefore + 8, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(server.openSocketCount() >= socketsBefore + 8, "the server did not accept the eight uploads in 30 s")
        // Background load that keeps running across the signal; it says when its first answers are in.
        let (answered, answeredSignal) = AsyncStream.makeStream(of: Void.self)
        let load = Task {
            var statuses: [Int] = []
            for _ in 0..<200 {
                guard let reply = try? await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key,
                                                             body: archive, client: client) else { break }
                statuses.append(reply.status)
                if statuses.count == 5 { answeredSignal.finish() }
            }
            answeredSignal.finish()
            return statuses
        }
        for await _ in answered {}  // the load is running
        server.signal(SIGTERM)
        // The drain has begun when the listener is closed: new connections are refused.
        let drainDeadline = ContinuousClock.now + .seconds(30)
        while ServerProcess.canConnect(port: port), ContinuousClock.now < drainDeadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(!ServerProcess.canConnect(port: port), "the listener was still open 30 s after SIGTERM")
        for continuation in continuations {
            continuation.yield(ByteBuffer(bytes: archive[half...]))
            continuation.finish()
        }
        for upload in uploads {
            #expect(try await upload.value == 200)
        }
        let statuses = await load.value
        #expect(!statuses.isEmpty)
        #expect(statuses.allSatisfy { $0 == 200 }, "statuses: \(Set(statuses))")
        #expect(try await server.waitForExit(timeout: .seconds(20)) == 0)
    }
}
