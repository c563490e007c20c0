@testable import ArchiveGateServer
import ArchiveGateTestSupport
import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The server-wide memory budget (`MemoryBudget`), the amplification cap and the send timeout,
/// over real HTTP on loopback.
@Suite struct MemoryBudgetTests {
    /// An NSArray holding the same `mebibytes`-long string `references` times: a small archive (and
    /// a tiny gzip) whose plain JSON repeats the string every time.
    static func amplifyingArchive(mebibytes: Int = 1, references: Int) throws -> [UInt8] {
        let string = String(repeating: "a", count: mebibytes << 20) as NSString
        let root = NSArray(array: Array(repeating: string, count: references))
        return Array(try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: true))
    }

    /// The gzip of the 1 MiB × 200 archive (~1.3 KB on the wire, 200 MiB of JSON) is refused at
    /// 16 × the archive, with a typed problem, before the budget is reached, and the budget is
    /// whole again after it.
    @Test func anAmplifyingArchiveIsRefusedCheaply() async throws {
        let gzip = try Fixtures.gzip(try Self.amplifyingArchive(references: 200))
        #expect(gzip.count < 8 << 10)
        try await TestServer.run(configure: { $0.memory.budgetBytes = 64 << 20; $0.memory.tenantShare = 1 }) { port in
            let reply = try await TestServer.send("/v1/convert", port: port, key: TestTenant.alpha.key, body: gzip,
                                                  headers: [("Content-Encoding", "gzip")])
            // Cheap is shown by what stopped it, not by a wall-clock bound a busy machine breaks:
            // the 200 MiB of JSON would pass the 64 MiB budget (503 server.busy) long before it was
            // done, so the amplification code says the output stopped at its 16 × allowance.
            #expect(reply.status == 422, "\(reply.text.prefix(300))")
            #expect(reply.json["code"] as? String == "output.amplification_exceeded")
            // Held nothing afterwards: four amplifying requests in a row fit the 64 MiB budget.
            for _ in 0..<4 {
                let again = try await TestServer.send("/v1/convert", port: port, key: TestTenant.alpha.key, body: gzip,
                                                      headers: [("Content-Encoding", "gzip")])
                #expect(again.json["code"] as? String == "output.amplification_exceeded")
            }
            // Within the factor, the same shape converts.
            let modest = try await TestServer.send("/v1/convert", port: port, key: TestTenant.alpha.key,
                                                   body: try Self.amplifyingArchive(references: 8))
            #expect(modest.status == 200)
            #expect(modest.body.count > 8 << 20)
        }
    }

    /// A tenant over its share of the budget gets 429 tenant.busy; past the whole budget, 503.
    @Test func sharesAndTheWholeBudgetRefuseWithRetryAfter() async throws {
        let archive = try Self.amplifyingArchive(references: 2)  // ~1 MiB archive, ~2 MiB JSON
        try await TestServer.run(configure: { $0.memory.budgetBytes = 64 << 20; $0.memory.tenantShare = 1.0 / 32 }) { port in
            let reply = try await TestServer.send("/v1/convert", port: port, key: TestTenant.alpha.key, body: archive)
            #expect(reply.status == 429, "\(reply.text.prefix(300))")
            #expect(reply.json["code"] as? String == "tenant.busy")
            #expect(reply.headers.first(name: "Retry-After") == "1")
        }
        try await TestServer.run(configure: { $0.memory.budgetBytes = 2 << 20; $0.memory.tenantShare = 1 }) { port in
            let reply = try await TestServer.send("/v1/convert", port: port, key: TestTenant.alpha.key, body: archive)
            #expect(reply.status == 503, "\(reply.text.prefix(300))")
            #expect(reply.json["code"] as? String == "server.busy")
            #expect(reply.headers.first(name: "Retry-After") == "1")
            // Small requests still fit.
            let small = try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: try Fixtures.plainArchive())
            #expect(small.status == 200)
        }
    }

    /// An upload whose body never completes holds an upload slot: with one slot per tenant, the
    /// same tenant gets 429 and another tenant is still served; with one slot in all, 503. The
    /// windows are wide (60 s, body timeout 180 s) because in a full parallel run at load 20+ the
    /// holder was once not admitted within 20 s (see the session-6 note).
    @Test func concurrentUploadsAreCapped() async throws {
        try await TestServer.run(configure: { $0.memory.maxConcurrentUploadsPerTenant = 1; $0.bodyTimeout = .seconds(180) }) { port in
            let head = "POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(TestTenant.alpha.key)\r\n"
                + "Content-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n"
            // The holder is admitted once its head is read; from then on alpha's next upload is refused.
            let (holder, refusal) = try await Self.admittedHolder(port: port, request: Array(head.utf8) + [UInt8](repeating: 0, count: 10)) {
                try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: try Fixtures.plainArchive())
            }
            defer { holder.close() }
            #expect(refusal.status == 429)
            #expect(refusal.json["code"] as? String == "tenant.busy")
            let other = try await TestServer.send("/v1/validate", port: port, key: TestTenant.beta.key, body: try Fixtures.plainArchive())
            #expect(other.status == 200)
            // The slot comes back when the holder goes away (shutdown: the deferred close is the only one).
            shutdown(holder.descriptor, Int32(SHUT_RDWR))
            let freed = try await Self.firstReply(within: .seconds(60), until: { $0.status == 200 }) {
                try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: try Fixtures.plainArchive())
            }
            #expect(freed.status == 200)
        }
        try await TestServer.run(configure: { $0.memory.maxConcurrentUploads = 1; $0.bodyTimeout = .seconds(180) }) { port in
            let head = "POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(TestTenant.beta.key)\r\n"
                + "Content-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n"
            let (holder, refusal) = try await Self.admittedHolder(port: port, request: Array(head.utf8)) {
                try await TestServer.send("/v1/validate", port: port, key: TestTenant.alpha.key, body: try Fixtures.plainArchive())
            }
            defer { holder.close() }
            #expect(refusal.status == 503)
            #expect(refusal.json["code"] as? String == "server.busy")
            // Requests without an upload are not affected.
            let health = try await TestServer.send("/healthz", method: .GET, port: port)
            #expect(health.status == 200)
        }
    }

    /// A client that reads only the first bytes of a 15 MiB answer is cut by the send timeout, and
    /// the server's one upload slot is free afterwards.
    @Test func aClientThatDoesNotReadIsCutAndItsMemoryReturned() async throws {
        let archive = try Self.amplifyingArchive(references: 15)
        try await TestServer.run(configure: {
            $0.memory.maxConcurrentUploads = 1
            $0.sendTimeout = .seconds(5)
        }) { port in
            let (reader, first) = try await Self.convertLeftUnread(archive, port: port)
            defer { reader.close() }
            // It reads no more: the server cuts it once the connection has stayed unwritable for
            // the 5 s send timeout (counted in /metrics), and the next upload is served.
            let cut = try await Self.firstReply(within: .seconds(60), until: { $0.text.contains("archivegate_send_timeouts_total 1") }) {
                try await TestServer.send("/metrics", method: .GET, port: port)
            }
            #expect(cut.text.contains("archivegate_send_timeouts_total 1"))
            let (rest, closed) = try await Self.readToEnd(reader, after: first)
            #expect(closed && first.count + rest < 15 << 20, "read \(first.count + rest) bytes, closed \(closed)")
            let served = try await TestServer.send("/v1/validate", port: port, key: TestTenant.beta.key, body: try Fixtures.plainArchive())
            #expect(served.status == 200)
        }
    }

    /// A request's lease is returned only once its answer has been written to the socket, not when
    /// the answer was handed to NIO: while a client holds 15 MiB unread, the one upload slot stays
    /// taken (503 server.busy); once it reads everything, the next upload is served. (Releasing when
    /// Hummingbird's writer returned failed this in one of two runs: the end of the body could be
    /// handed over before the channel had turned unwritable.)
    @Test func theLeaseIsHeldUntilTheAnswerIsWritten() async throws {
        let archive = try Self.amplifyingArchive(references: 15)
        try await TestServer.run(configure: {
            $0.memory.maxConcurrentUploads = 1
            $0.sendTimeout = .seconds(120)
        }) { port in
            let (reader, first) = try await Self.convertLeftUnread(archive, port: port)
            defer { reader.close() }

            // The answer is on its way but unread: its lease (and the only upload slot) is still held.
            let busy = try await TestServer.send("/v1/validate", port: port, key: TestTenant.beta.key, body: try Fixtures.plainArchive())
            #expect(busy.status == 503, "\(busy.text.prefix(200))")
            #expect(busy.json["code"] as? String == "server.busy")

            let total = first.count + (try await Self.readToEnd(reader, after: first)).count
            #expect(total > 15 << 20)
            let served = try await Self.firstReply(within: .seconds(10), until: { $0.status == 200 }) {
                try await TestServer.send("/v1/validate", port: port, key: TestTenant.beta.key, body: try Fixtures.plainArchive())
            }
            #expect(served.status == 200, "\(served.text.prefix(200))")
        }
    }

    /// Issue 31: four tenants × 32 trickled uploads held all 128 slots, and every other tenant got
    /// 503 until the body timeout. Each tenant is guaranteed its share (128 / 5 = 25) whatever
    /// order the others came in; over it, 429 tenant.busy.
    @Test func uploadSlotsAreSharedFairlyBetweenTenants() throws {
        var limits = MemoryBudget.Limits(totalBytes: .max, tenantBytes: .max, maxUploads: 128, maxUploadsPerTenant: 32)
        limits.tenants = 5
        let budget = MemoryBudget(limits: limits)
        var held: [String: [MemoryLease]] = [:]
        for tenant in ["t1", "t2", "t3", "t4"] {
            for _ in 0..<32 {
                do {
                    held[tenant, default: []].append(try budget.admit(tenant: tenant))
                } catch {
                    #expect(error.code == .tenantBusy, "\(tenant): \(error.code)")
                }
            }
        }
        #expect(held.mapValues(\.count) == ["t1": 28, "t2": 25, "t3": 25, "t4": 25])
        var calm: [MemoryLease] = []
        for _ in 0..<25 { calm.append(try budget.admit(tenant: "calm")) }
        #expect(budget.current.uploads == 128)
        held.removeAll()
        calm.removeAll()
        #expect(budget.current == MemoryBudget.Usage())
    }

    /// A tenant over its guarantee may borrow free slots, but never the ones other tenants are owed.
    @Test func borrowingStopsAtWhatOthersAreOwed() {
        let share = UploadSlotShare(maxUploads: 10, maxUploadsPerTenant: 10, tenants: 2)
        #expect(share.guaranteed == 5)
        #expect(share.refusal(tenant: "a", held: ["a": 4], inUse: 4) == nil)
        #expect(share.refusal(tenant: "a", held: ["a": 5], inUse: 5) != nil, "b is owed the other 5")
        #expect(share.refusal(tenant: "a", held: ["a": 5, "b": 5], inUse: 10) != nil)
        #expect(UploadSlotShare(maxUploads: 10, maxUploadsPerTenant: 10, tenants: 3).refusal(tenant: "a", held: ["a": 3, "b": 7], inUse: 10) != nil)
        #expect(UploadSlotShare(maxUploads: 13, maxUploadsPerTenant: 13, tenants: 3).refusal(tenant: "a", held: ["a": 4], inUse: 4) == nil,
                "one free beyond the 8 the others are owed")
        #expect(UploadSlotShare(maxUploads: 12, maxUploadsPerTenant: 12, tenants: 3).refusal(tenant: "a", held: ["a": 4], inUse: 4) != nil)
    }

    /// Alone (or the only tenant configured) a tenant still gets its whole per-tenant cap.
    @Test func aSingleTenantKeepsItsWholeCap() throws {
        var limits = MemoryBudget.Limits(totalBytes: .max, tenantBytes: .max, maxUploads: 8, maxUploadsPerTenant: 8)
        limits.tenants = 1
        let budget = MemoryBudget(limits: limits)
        let leases = try (0..<8).map { _ in try budget.admit(tenant: "only") }
        #expect(leases.count == 8)
        #expect(throws: ProblemError.self) { try budget.admit(tenant: "only") }
        #expect(UploadSlotShare(maxUploads: 128, maxUploadsPerTenant: 128, tenants: 2).guaranteed == 64)
    }

    /// Accounting on its own: reservations add up per tenant, refusals take nothing, release is whole.
    @Test func leasesAddUpAndReleaseWhole() throws {
        let budget = MemoryBudget(limits: .init(totalBytes: 100, tenantBytes: 60, maxUploads: 3, maxUploadsPerTenant: 2))
        let a1 = try budget.admit(tenant: "a")
        let a2 = try budget.admit(tenant: "a")
        #expect(throws: ProblemError.self) { try budget.admit(tenant: "a") }
        let b1 = try budget.admit(tenant: "b")
        #expect(throws: ProblemError.self) { try budget.admit(tenant: "c") }
        try a1.reserve(40)
        #expect(throws: ProblemError.self) { try a2.reserve(30) }  // a's share is 60
        try b1.reserve(50)
        #expect(throws: ProblemError.self) { try a2.reserve(20) }  // 40 + 50 + 20 > 100
        #expect(budget.current.bytes == 90)
        a1.shrink(by: 15)
        #expect(budget.current.bytes == 75)
        a1.release()
        a1.release()
        b1.release()
        a2.release()
        #expect(budget.current == MemoryBudget.Usage())
    }

    /// A `/v1/convert` of `archive` (tenant alpha) on a raw connection with a small receive buffer
    /// (the kernel must not take the whole answer off the server's hands), of whose answer only the
    /// first bytes are read: they must start a 200. The caller closes the connection.
    static func convertLeftUnread(_ archive: [UInt8], port: Int) async throws -> (RawConnection, first: [UInt8]) {
        let reader = try RawConnection(port: port)
        var size: Int32 = 64 << 10
        setsockopt(reader.descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let head = "POST /v1/convert HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(TestTenant.alpha.key)\r\n"
            + "Content-Type: application/octet-stream\r\nContent-Length: \(archive.count)\r\n\r\n"
        #expect(reader.send(Array(head.utf8) + archive))
        do {
            let (first, _) = try await offCooperativePool { reader.read(waitingAtMost: .seconds(30)) }
            #expect(String(decoding: first.prefix(12), as: UTF8.self) == "HTTP/1.1 200")
            return (reader, first)
        } catch {
            reader.close()
            throw error
        }
    }

    /// Reads the rest of the answer whose first bytes were `first`: until the server closes the
    /// connection or the body's `Content-Length` has arrived — events, not a quiet spell (a server
    /// slowed by a busy machine may pause for seconds); 60 s of silence only guards against a hang.
    /// Returns the bytes read after `first`, and whether the server closed.
    static func readToEnd(_ reader: RawConnection, after first: [UInt8]) async throws -> (count: Int, closed: Bool) {
        let text = String(decoding: first.prefix(4096), as: UTF8.self)
        let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
        let length = head.components(separatedBy: "\r\n").lazy
            .compactMap { line -> Int? in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }.first
        let expected = length.map { head.utf8.count + 4 + $0 - first.count }
        return try await offCooperativePool { () -> (Int, Bool) in
            var total = 0
            while expected.map({ total < $0 }) ?? true {
                let (bytes, closed) = reader.read(waitingAtMost: .seconds(60))
                total += bytes.count
                if closed || bytes.isEmpty { return (total, closed) }
            }
            return (total, false)
        }
    }

    /// Opens a connection that sends `request` (an upload's head, its body left unfinished) and
    /// probes with `probe` until a probe is refused (the holder has the slot). The holder and the
    /// first probe race for the one slot: when the probe's upload is admitted first, the holder is
    /// the one refused, gets that answer on its own connection, and every later probe is served.
    /// Such a holder is replaced by a new one (at most 20 times, backing off); the last probe reply is returned.
    static func admittedHolder(port: Int, request: [UInt8],
                               probe: () async throws -> TestReply) async throws -> (RawConnection, TestReply) {
        var lastAnswer = ""
        for attempt in 0 ..< 20 {
            // A probe's lease is returned once the server has seen its answer written, which can lag
            // the client's read of it: a holder sent right after a probe can find the slot still
            // taken. Back off before the next holder.
            if attempt > 0 { try await Task.sleep(for: .milliseconds(100 * attempt)) }
            let holder = try RawConnection(port: port)
            #expect(holder.send(request))
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let reply = try await probe()
                if reply.status != 200 { return (holder, reply) }
                let (answered, closed) = holder.read(waitingAtMost: .milliseconds(1))
                if !answered.isEmpty || closed {
                    lastAnswer = String(decoding: answered.prefix(400), as: UTF8.self)
                    break
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            holder.close()
        }
        Issue.record("no holder was admitted in 20 attempts; the last was answered: \(lastAnswer)")
        throw POSIXError(.EBUSY)
    }

    /// Sends until `done` holds for a reply, at most until `within` has passed: for conditions the
    /// server reaches by itself (a slot taken, a slot freed) without a sleep deciding the order.
    static func firstReply(within: Duration, until done: (TestReply) -> Bool,
                           _ send: () async throws -> TestReply) async throws -> TestReply {
        let deadline = ContinuousClock.now + within
        var reply = try await send()
        while !done(reply), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            reply = try await send()
        }
        return reply
    }
}

/// Its one stored property is an immutable descriptor; the tests use a connection from one task at a time.
extension RawConnection: @unchecked Sendable {}
