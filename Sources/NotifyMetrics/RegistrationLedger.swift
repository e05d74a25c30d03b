import NotifySystem

/// The live registrations a ``NotifyMetricsProbe`` counted, by id: removals and dropped tokens
/// name only the registration, and must land in the gauge and name the registration counted in.
/// Knowing each id also makes the count exact when a registration is reported twice.
final class RegistrationLedger: @unchecked Sendable {  // `lock` guards `live`
    struct Entry {
        let metrics: NameMetrics
        /// Owner-bound registrations drop their token by design: it is no orphan.
        let countsDroppedToken: Bool
        var tokenDropped: Bool
    }

    private let lock = Lock()
    @exclusivity(unchecked) private var live: [UInt64: Entry] = [:]

    /// Records a registration; false when `id` is already live (its second report).
    func add(_ id: UInt64, _ entry: Entry) -> Bool {
        lock.withLock {
            guard live[id] == nil else { return false }
            live[id] = entry
            return true
        }
    }

    /// Forgets a registration; nil when it was not live (never reported, or already removed).
    func remove(_ id: UInt64) -> Entry? {
        lock.withLock { live.removeValue(forKey: id) }
    }

    /// Marks a registration's token dropped; returns its handles the first time an orphan's token
    /// is dropped, nil otherwise.
    func dropToken(_ id: UInt64) -> NameMetrics? {
        lock.withLock {
            guard let entry = live[id], !entry.tokenDropped else { return nil }
            live[id]?.tokenDropped = true
            return entry.countsDroppedToken ? entry.metrics : nil
        }
    }

    /// Forgets every registration, returning them.
    func removeAll() -> [Entry] {
        lock.withLock {
            defer { live = [:] }
            return Array(live.values)
        }
    }

    var count: Int {
        lock.withLock { live.count }
    }
}
