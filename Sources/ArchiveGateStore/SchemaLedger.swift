/// The check both stores' migrators make of `schema_migrations` before applying anything: the
/// recorded steps must be this build's first steps, in order, with the same names, and none may be
/// newer than this build knows.
enum SchemaLedger {
    /// Throws `schemaTooNew` for a step beyond `expectedNames` and `migrationMismatch` for a gap or a
    /// renamed step. `applied` is the ledger in version order; `expectedNames[i]` is version i + 1's.
    static func check(applied: [(version: Int, name: String)], expectedNames: [String]) throws(ResultStoreError) {
        for (index, (version, name)) in applied.enumerated() {
            guard version <= expectedNames.count else {
                throw ResultStoreError(.schemaTooNew, "the database is at schema version \(version); this build knows \(expectedNames.count)")
            }
            guard version == index + 1, expectedNames[version - 1] == name else {
                throw ResultStoreError(.migrationMismatch, "schema_migrations has version \(version) \"\(name)\" where this build expects version \(index + 1) \"\(expectedNames[index])\"")
            }
        }
    }
}
