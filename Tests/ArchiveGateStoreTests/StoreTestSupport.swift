import ArchiveGateCore
import Foundation
import Logging
import Synchronization
@testable import ArchiveGateStore

/// A clock the test moves by hand, so expiry is decided by the test, not by sleeping.
final class ManualClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}

enum Sample {
    /// A 64-hex-digit digest that differs per `seed`.
    static func sha256(_ seed: Int) -> String {
        let hex = String(seed, radix: 16)
        return String(repeating: "0", count: 64 - hex.count) + hex
    }

    static func result(
        tenant: String = "acme", seed: Int = 1, mode: OutputMode = .plain, source: ResultSource = .upload,
        report: [UInt8]? = nil, json: [UInt8]?? = nil
    ) -> NewResult {
        NewResult(
            tenant: tenant, sha256: sha256(seed), size: 100 + seed, source: source, mode: mode,
            report: report ?? Array(#"{"valid":true,"seed":\#(seed)}"#.utf8),
            convertedJSON: json ?? Array(#"{"$class":"Post","n":\#(seed)}"#.utf8)
        )
    }
}

extension ResultStore {
    /// Every page of the tenant's listing, following cursors.
    func listAll(tenant: String, pageSize: Int) async throws -> [[ResultSummary]] {
        var pages: [[ResultSummary]] = []
        var cursor: ResultCursor?
        repeat {
            let page = try await list(tenant: tenant, limit: pageSize, cursor: cursor)
            pages.append(page.items)
            cursor = page.nextCursor
        } while cursor != nil && pages.count < 1000
        return pages
    }
}

/// A value shared between test tasks.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T {
        mutex.withLock { body(&$0) }
    }
}
