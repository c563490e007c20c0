/// One step of the PostgreSQL schema's history. Steps are never edited once released: a change is a new step.
struct PostgresMigration: Sendable {
    /// 1, 2, 3 … in order, without gaps.
    let version: Int
    /// Recorded in `schema_migrations` and compared at every start, to notice a diverging history.
    let name: String
    /// Run in order, inside the one transaction that applies all pending steps.
    let statements: [String]
}

extension PostgresMigration {
    /// The schema this build expects, oldest first.
    static let all: [PostgresMigration] = [
        PostgresMigration(version: 1, name: "create results", statements: [
            // Times are milliseconds since 1970 (UTC), as in the SQLite store, so cursors are the same.
            // `id` sorts bytewise (COLLATE "C") whatever the database's locale, so pages are ordered
            // like the ids themselves. `has_json` and `stored_bytes` are columns so that listing,
            // metadata and quota checks never read the documents.
            """
            CREATE TABLE results (
                id TEXT COLLATE "C" NOT NULL PRIMARY KEY,
                tenant TEXT COLLATE "C" NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
                size BIGINT NOT NULL CHECK (size >= 0),
                source TEXT NOT NULL,
                mode TEXT NOT NULL CHECK (mode IN ('plain', 'typed')),
                etag TEXT NOT NULL,
                has_json BOOLEAN NOT NULL,
                stored_bytes BIGINT NOT NULL CHECK (stored_bytes >= 0),
                report BYTEA NOT NULL,
                converted_json BYTEA,
                CHECK (has_json = (converted_json IS NOT NULL))
            )
            """,
            // Newest-first pagination of one tenant: WHERE tenant = $1 AND (created_at, id) < ($2, $3).
            "CREATE INDEX results_by_tenant_created ON results (tenant, created_at DESC, id DESC)",
            // Idempotent re-upload: at most one row per key, whichever replica inserts it (ON CONFLICT).
            "CREATE UNIQUE INDEX results_by_tenant_digest ON results (tenant, sha256, mode)",
            // A tenant's live usage (count and bytes) for the quota, from the index alone.
            "CREATE INDEX results_by_tenant_expiry ON results (tenant, expires_at) INCLUDE (stored_bytes)",
            // The purge's range scan.
            "CREATE INDEX results_by_expiry ON results (expires_at)",
            // The documents are already compact JSON; compressing them costs CPU on every read.
            "ALTER TABLE results ALTER COLUMN report SET STORAGE EXTERNAL",
            "ALTER TABLE results ALTER COLUMN converted_json SET STORAGE EXTERNAL",
        ]),
        // Issue 15 (as SQLite's version 2): a re-upload after the tenant's policy changed must be
        // judged again, so the policy's digest joins the idempotency key. Rows from version 1 get ''.
        PostgresMigration(version: 2, name: "policy digest in the idempotency key", statements: [
            "ALTER TABLE results ADD COLUMN policy_digest TEXT NOT NULL DEFAULT ''",
            "DROP INDEX results_by_tenant_digest",
            "CREATE UNIQUE INDEX results_by_tenant_digest_policy ON results (tenant, sha256, mode, policy_digest)",
        ]),
        // Issue 19 (as SQLite's version 4): the sanitized archive, asking for it in the idempotency
        // key, and `has_archive` as a column so listing, metadata and 304s never read the blob.
        PostgresMigration(version: 3, name: "sanitized archive", statements: [
            "ALTER TABLE results ADD COLUMN sanitized BOOLEAN NOT NULL DEFAULT false",
            "ALTER TABLE results ADD COLUMN has_archive BOOLEAN NOT NULL DEFAULT false",
            "ALTER TABLE results ADD COLUMN sanitized_archive BYTEA",
            "ALTER TABLE results ADD CONSTRAINT results_has_archive CHECK (has_archive = (sanitized_archive IS NOT NULL))",
            "ALTER TABLE results ALTER COLUMN sanitized_archive SET STORAGE EXTERNAL",
            "DROP INDEX results_by_tenant_digest_policy",
            "CREATE UNIQUE INDEX results_by_tenant_key ON results (tenant, sha256, mode, policy_digest, sanitized)",
        ]),
        // Issue 34 (as SQLite's version 5): the file name an upload gave, not in the idempotency key.
        PostgresMigration(version: 4, name: "upload name", statements: [
            "ALTER TABLE results ADD COLUMN name TEXT",
        ]),
    ]
}
