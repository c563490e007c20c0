/// How the server's upload slots (`memory.maxConcurrentUploads`) are shared between tenants, so
/// that a few tenants holding slots with slow uploads cannot lock every other tenant out.
///
/// Every configured tenant is guaranteed `maxUploads / tenants` slots (at most
/// `maxUploadsPerTenant`, at least 1). A tenant below its guarantee always finds a free slot; one
/// at or above it may borrow another only while enough stay free to cover what every other tenant
/// is still guaranteed and does not hold:
///
///     free − 1 ≥ Σ over the other tenants of max(0, guaranteed − held)
///
/// Taking a slot keeps that inequality true for everyone, so the guarantee holds whatever order
/// uploads arrive in: with 128 slots and 5 tenants, four tenants trickling bodies one byte at a
/// time hold at most 103 slots and the fifth still gets its 25. With one tenant configured nothing
/// is held back. Slots already held are never taken away; a refusal is 429 `tenant.busy`.
struct UploadSlotShare: Sendable, Hashable {
    let maxUploads: Int
    let maxUploadsPerTenant: Int
    /// Tenants configured: only they are owed a guarantee.
    let tenants: Int

    /// The slots each tenant can always get.
    var guaranteed: Int { max(1, min(maxUploadsPerTenant, maxUploads / max(1, tenants))) }

    /// Nil when `tenant` may take one more slot; otherwise the refusal's detail. `held` maps each
    /// tenant holding slots to how many; `inUse` is their sum.
    func refusal(tenant: String, held: [String: Int], inUse: Int) -> String? {
        let own = held[tenant, default: 0]
        if own >= maxUploadsPerTenant { return "the tenant has \(maxUploadsPerTenant) uploads in progress" }
        let guaranteed = self.guaranteed
        if own < guaranteed { return nil }
        var owed = 0
        var otherHolders = 0
        for (other, count) in held where other != tenant {
            otherHolders += 1
            owed += max(0, guaranteed - count)
        }
        owed += max(0, tenants - 1 - otherHolders) * guaranteed
        if maxUploads - inUse - 1 >= owed { return nil }
        return "the tenant has \(own) uploads in progress, at least its guaranteed \(guaranteed) of the \(maxUploads) upload slots; the free ones are kept for the other tenants' guarantees"
    }
}
