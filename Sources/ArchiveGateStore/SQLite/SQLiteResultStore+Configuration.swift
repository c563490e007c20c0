extension SQLiteResultStore {
    /// Settings of the embedded store; the defaults let a server start with no configuration.
    public struct Configuration: Sendable, Hashable {
        /// The database file; a relative path is resolved against the working directory at open,
        /// and missing parent directories are created (mode 0700).
        public var path: String
        /// How long a result stays readable after it is stored.
        public var retention: Duration
        /// How long a statement waits for a lock held by another process before failing with
        /// ``ResultStoreError/Code/busy``. Writers in one process never wait on each other here:
        /// they queue for the single writer connection.
        public var busyTimeout: Duration
        /// Read-only connections beside the writer (WAL lets them read while it writes).
        public var readerCount: Int
        /// The largest page ``SQLiteResultStore/list(tenant:limit:cursor:)`` returns.
        public var maximumPageSize: Int

        public init(
            path: String = "./data/archivegate.sqlite",
            retention: Duration = .seconds(7 * 24 * 60 * 60),
            busyTimeout: Duration = .seconds(10),
            readerCount: Int = 2,
            maximumPageSize: Int = 100
        ) {
            self.path = path
            self.retention = retention
            self.busyTimeout = busyTimeout
            self.readerCount = readerCount
            self.maximumPageSize = maximumPageSize
        }
    }
}

extension Duration {
    /// Whole milliseconds, saturating instead of overflowing.
    var storeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (wholeMilliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, overflowAgain) = wholeMilliseconds.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return overflowAgain ? .max : total
    }
}
