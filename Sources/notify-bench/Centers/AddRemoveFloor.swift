import CNotifyTicks
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The floor of an add+remove pair: the least a center can do and keep what NotifyKit keeps.
///
/// An add locks one pthread mutex, allocates a registration (the handler, its id and its time from
/// one tick-counter reading), appends it and unlocks, then allocates the token. A removal locks,
/// finds the registration from the newest end, removes it, reads the counter for the removal's time,
/// unlocks, and the registration and token are freed. Names are not kept: every registration shares
/// one array, so no name is hashed.
final class AddRemoveFloor: BenchCenter, @unchecked Sendable {  // `entries` and `removedAt` are guarded by `mutex`
    static let column = Column.floor

    final class Entry {
        let id: UInt64
        let registeredAt: UInt64
        let handler: Handler

        init(id: UInt64, registeredAt: UInt64, handler: @escaping Handler) {
            self.id = id
            self.registeredAt = registeredAt
            self.handler = handler
        }
    }

    final class Token {
        let id: UInt64
        init(id: UInt64) { self.id = id }
    }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var entries: ContiguousArray<Entry> = []
    private var lastID: UInt64 = 0
    private var removedAt: UInt64 = 0

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(never)
    func add(_ name: Notification.Name, _ handler: @escaping Handler) -> AnyObject {
        pthread_mutex_lock(mutex)
        lastID &+= 1
        let id = lastID
        entries.append(Entry(id: id, registeredAt: notify_cpu_ticks(), handler: handler))
        pthread_mutex_unlock(mutex)
        return Token(id: id)
    }

    @inline(never)
    func remove(_ token: AnyObject) {
        let id = unsafeDowncast(token, to: Token.self).id
        pthread_mutex_lock(mutex)
        var removed: Entry?
        if let index = entries.lastIndex(where: { $0.id == id }) {
            removed = entries.remove(at: index)
            removedAt = notify_cpu_ticks()
        }
        pthread_mutex_unlock(mutex)
        withExtendedLifetime(removed) {}
    }

    @inline(never)
    func post(_ name: Notification.Name) {
        let notification = Notification(name: name)
        pthread_mutex_lock(mutex)
        let snapshot = entries
        pthread_mutex_unlock(mutex)
        for entry in snapshot { entry.handler(notification) }
    }
}

/// The parts of ``AddRemoveFloor``'s pair, each timed alone.
enum FloorParts {
    /// One registration-sized object allocated and freed.
    @inline(never)
    static func allocation(_ handler: @escaping Handler) -> UInt64 {
        let entry = AddRemoveFloor.Entry(id: 1, registeredAt: 0, handler: handler)
        // Its address is the result, so the allocation cannot be optimised away.
        return UInt64(UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()))
    }

    /// One uncontended lock and unlock.
    @inline(never)
    static func lockPair(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        pthread_mutex_lock(mutex)
        pthread_mutex_unlock(mutex)
    }

    /// One reading of the tick counter, NotifyKit's clock for registration times.
    @inline(never)
    static func clockReading() -> UInt64 {
        notify_cpu_ticks()
    }
}
