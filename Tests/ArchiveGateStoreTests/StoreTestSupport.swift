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

/// A database file in a fresh temporary directory, removed when the test is done with it.
struct TemporaryDatabase: TestDatabase {
    let directory: URL
    var path: String { directory.appendingPathComponent("results.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("archivegate-store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func configuration(retention: Duration = .seconds(3600)) -> SQLiteResultStore.Configuration {
        SQLiteResultStore.Configuration(path: path, retention: retention, maximumPageSize: 50)
    }

    func open(
        clock: ManualClock, retention: Duration = .seconds(3600), migrations: [SQLiteMigration] = SQLiteMigration.all
    ) async throws -> SQLiteResultStore {
        try await SQLiteResultStore.open(
            configuration: configuration(retention: retention), migrations: migrations,
            logger: Logger(label: "test.store"), now: { clock.now })
    }

    func open(clock: ManualClock, retention: Duration) async throws -> any TestStore {
        try await open(clock: clock, retention: retention, migrations: SQLiteMigration.all)
    }

    func remove() async {
        try? FileManager.default.removeItem(at: directory)
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

extension SQLiteResultStore: TestStore {
    /// Rows physically present, expired or not (tests look under the store's visibility rules).
    func physicalRowCount() async throws -> Int {
        try await pool.withConnection(.reader) { db in
            try await db.run("SELECT count(*) AS n FROM results").first?.column("n")?.integer ?? -1
        }
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
