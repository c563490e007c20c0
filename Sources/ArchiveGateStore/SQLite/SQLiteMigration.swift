/// One step of the schema's history. Steps are never edited once released: a change is a new step.
struct SQLiteMigration: Sendable {
    /// 1, 2, 3 … in order, without gaps.
    let version: Int
    /// Recorded in `schema_migrations` and compared at every open, to notice a diverging history.
    let name: String
    /// Run in order, inside the one transaction that applies all pending steps.
    let statements: [String]
}

extension SQLiteMigration {
    /// The schema this build expects, oldest first.
    static let all: [SQLiteMigration] = [
        SQLiteMigration(version: 1, name: "create results", statements: [
            // Times are milliseconds since 1970 (UTC). STRICT makes SQLite refuse a value of the wrong
            // type, so the report and JSON can only ever be stored, and read back, as BLOBs.
            """
            CREATE TABLE results (
                id TEXT NOT NULL PRIMARY KEY,
                tenant TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
                size INTEGER NOT NULL CHECK (size >= 0),
                source TEXT NOT NULL,
                mode TEXT NOT NULL CHECK (mode IN ('plain', 'typed')),
                etag TEXT NOT NULL,
                report BLOB NOT NULL,
                converted_json BLOB
            ) STRICT
            """,
            // Newest-first pagination of one tenant: WHERE tenant = ? AND (created_at, id) < (?, ?).
            "CREATE INDEX results_by_tenant_created ON results (tenant, created_at DESC, id DESC)",
            // Idempotent re-upload lookup, and at most one live result per key.
            "CREATE UNIQUE INDEX results_by_tenant_digest ON results (tenant, sha256, mode)",
            // The purge's range scan.
            "CREATE INDEX results_by_expiry ON results (expires_at)",
        ]),
        // Issue 15: a re-upload after the tenant's policy changed must be judged again, so the
        // policy's digest joins the idempotency key. Rows from version 1 get '' (no digest), which
        // no current policy has: the first re-upload under any policy makes a fresh result.
        SQLiteMigration(version: 2, name: "policy digest in the idempotency key", statements: [
            "ALTER TABLE results ADD COLUMN policy_digest TEXT NOT NULL DEFAULT ''",
            "DROP INDEX results_by_tenant_digest",
            "CREATE UNIQUE INDEX results_by_tenant_digest_policy ON results (tenant, sha256, mode, policy_digest)",
        ]),
        SQLiteMigration(version: 3, name: "size and presence as columns", statements: [
            // Listing, metadata, ETag revalidation and quota checks read these instead of the documents
            // (issue 15: a 262 MB stored JSON made a one-item listing read 256 MB).
            "ALTER TABLE results ADD COLUMN has_json INTEGER NOT NULL DEFAULT 0 CHECK (has_json IN (0, 1))",
            "ALTER TABLE results ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0 CHECK (stored_bytes >= 0)",
            """
            UPDATE results SET has_json = (converted_json IS NOT NULL),
                stored_bytes = length(report) + coalesce(length(converted_json), 0)
            """,
            // A tenant's live usage (count and bytes) from the index alone.
            "CREATE INDEX results_by_tenant_expiry ON results (tenant, expires_at, stored_bytes)",
        ]),
        // Issue 19: `POST /v1/archives?sanitize=true` keeps the archive ArchiveGate wrote beside the
        // result. Asking for it joins the idempotency key (a re-upload asking for the archive must
        // not get an earlier result without one); `has_archive` is a column, like `has_json`, so
        // listing, metadata and 304s never read the blob. Existing rows asked for none.
        SQLiteMigration(version: 4, name: "sanitized archive", statements: [
            "ALTER TABLE results ADD COLUMN sanitized INTEGER NOT NULL DEFAULT 0 CHECK (sanitized IN (0, 1))",
            "ALTER TABLE results ADD COLUMN has_archive INTEGER NOT NULL DEFAULT 0 CHECK (has_archive IN (0, 1))",
            "ALTER TABLE results ADD COLUMN sanitized_archive BLOB",
            "DROP INDEX results_by_tenant_digest_policy",
            "CREATE UNIQUE INDEX results_by_tenant_key ON results (tenant, sha256, mode, policy_digest, sanitized)",
        ]),
        // Issue 34: the file name an upload gave (`POST /v1/archives?name=`), so listings name files.
        // Not in the idempotency key; rows from before have none (NULL).
        SQLiteMigration(version: 5, name: "upload name", statements: [
            "ALTER TABLE results ADD COLUMN name TEXT",
        ]),
    ]
}
