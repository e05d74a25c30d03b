import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The floor: the handlers of one name in a plain array behind one pthread mutex. A post locks,
/// copies (retains) the array, unlocks and calls each handler; no center can do less and keep
/// Foundation's "no lock held during callouts" rule.
final class FloorCenter: BenchCenter, @unchecked Sendable {  // `handlers` is guarded by `mutex`
    static let column = Column.floor
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var handlers: [Handler] = []

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Appends `handler`; the floor has a single name, ``BenchNames/target``, and hands out no
    /// token of its own (it returns itself).
    func add(_ name: Notification.Name, _ handler: @escaping Handler) -> AnyObject {
        precondition(name == BenchNames.target, "the floor has one name")
        pthread_mutex_lock(mutex)
        handlers.append(handler)
        pthread_mutex_unlock(mutex)
        return self
    }

    func remove(_ token: AnyObject) {
        preconditionFailure("the floor never removes")
    }

    /// Not inlined into the benchmark loop, so it pays a call like the centers do.
    @inline(never)
    func post(_ name: Notification.Name) {
        let notification = Notification(name: name)
        pthread_mutex_lock(mutex)
        let snapshot = handlers
        pthread_mutex_unlock(mutex)
        for handler in snapshot { handler(notification) }
    }

    /// The design the contention benchmark must show failing: the lock held across the callouts.
    @inline(never)
    func postHoldingLock(_ name: Notification.Name) {
        let notification = Notification(name: name)
        pthread_mutex_lock(mutex)
        for handler in handlers { handler(notification) }
        pthread_mutex_unlock(mutex)
    }
}

/// The floor posting with its lock held across the callouts.
struct LockHeldFloor: Poster {
    let floor: FloorCenter

    func post(_ name: Notification.Name) {
        floor.postHoldingLock(name)
    }
}
