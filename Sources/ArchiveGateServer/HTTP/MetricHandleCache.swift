import Synchronization

/// Metric handles by their label values, made once and reused. Making a swift-metrics handle asks
/// the Prometheus registry for it: the name and every label are re-validated and the series looked
/// up under the registry's lock — per request, that cost more than the rest of the access log.
/// A series is the same object either way (the registry returns the existing one), so what
/// `/metrics` shows is unchanged.
final class MetricHandleCache<Key: Hashable & Sendable, Handle: Sendable>: Sendable {
    /// Past this many series the cache stops growing and hands out fresh handles (the registry's
    /// own lookup): label values such as the request method come from clients.
    static var capacity: Int { 4096 }

    private let handles = Mutex<[Key: Handle]>([:])

    init() {}

    /// The handle for `key`, made by `make` the first time.
    func handle(_ key: Key, make: () -> Handle) -> Handle {
        if let handle = handles.withLock({ $0[key] }) { return handle }
        let made = make()
        return handles.withLock { handles in
            if let existing = handles[key] { return existing }
            if handles.count < Self.capacity { handles[key] = made }
            return made
        }
    }
}
