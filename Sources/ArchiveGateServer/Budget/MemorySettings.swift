import Foundation

/// The `memory.*` keys: the server-wide memory budget and its shares (`MemoryBudget`), and the
/// output amplification cap (`AmplificationCap`).
public struct MemorySettings: Sendable, Hashable {
    /// The budget in bytes; nil ("auto"): `budgetFraction` of `ContainerMemory.available()`.
    public var budgetBytes: Int? = ConfigurationDefaults.memoryBudgetBytes.defaultValue
    public var budgetFraction: Double = ConfigurationDefaults.memoryBudgetFraction.defaultValue
    /// The part of the budget one tenant's requests may hold at once.
    public var tenantShare: Double = ConfigurationDefaults.memoryTenantShare.defaultValue
    /// Upload-like requests (`/v1` POSTs) in progress at once, server-wide and per tenant.
    public var maxConcurrentUploads: Int = ConfigurationDefaults.memoryMaxConcurrentUploads.defaultValue
    public var maxConcurrentUploadsPerTenant: Int = ConfigurationDefaults.memoryMaxConcurrentUploadsPerTenant.defaultValue
    /// JSON output may be at most this many times the archive (`AmplificationCap`).
    public var amplificationFactor: Int = ConfigurationDefaults.memoryAmplificationFactor.defaultValue

    public init() {}

    /// The budget's caps on this machine.
    func limits(containerMemory: Int = ContainerMemory.available()) -> MemoryBudget.Limits {
        let total = budgetBytes ?? Int(Double(containerMemory) * budgetFraction)
        return MemoryBudget.Limits(totalBytes: total, tenantBytes: max(1, Int(Double(total) * tenantShare)),
                                   maxUploads: maxConcurrentUploads, maxUploadsPerTenant: maxConcurrentUploadsPerTenant)
    }
}

/// How much memory this process may use: the cgroup's limit when it has one (a container), else
/// the machine's physical memory.
enum ContainerMemory {
    /// cgroup v2, then v1. "max" (v2) or a huge number (v1) means no limit.
    static let limitFiles = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]

    static func available(limitFiles: [String] = limitFiles) -> Int {
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        for path in limitFiles {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                  let limit = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { continue }
            return min(limit, physical)
        }
        return physical
    }
}
