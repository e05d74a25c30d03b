import Foundation
import NotifySystem
import Synchronization

/// A notification center with Foundation's semantics, fast, and observable through probes.
///
/// Port code from `NotificationCenter` by changing the type name: the `Notification`,
/// `Notification.Name` and `OperationQueue` it takes are Foundation's. What differs is what
/// Foundation on Linux gets wrong: delivery follows registration order, an observer removed
/// during a post is not called afterwards, dead object filters never match, tokens cannot remove
/// another center's registrations, and target–action observers are held weakly as on Darwin.
///
/// ```swift
/// let center = NotifyCenter(label: "app")
/// let token = center.addObserver(forName: .cartDidChange, object: nil, queue: nil) { note in
///     print("cart changed", note.userInfo ?? [:])
/// }
/// center.post(name: .cartDidChange, object: cart)
/// token.cancel()
/// ```
///
/// Every method may be called from any thread, including from inside a handler. No lock is held
/// while a handler runs.
public final class NotifyCenter: @unchecked Sendable {  // `table` and `probes` are guarded by `lock`
    /// The process-wide center, like `NotificationCenter.default`.
    public static let `default` = NotifyCenter(label: "default")

    /// A name for this center in descriptions, events and the dashboard.
    public let label: String

    let lock = Lock()
    // Guarded by `lock`, so the runtime's exclusivity checks would only repeat what the lock ensures.
    @exclusivity(unchecked) var table = RegistrationTable()
    @exclusivity(unchecked) var probes: ProbeSet?
    /// When the last complete ``lookForDeadObjectFilters()`` began: every filter it found alive was
    /// alive then; 0 never.
    @exclusivity(unchecked) var objectFiltersSeenAliveAt: UInt64 = 0
    /// When the look under way began going through the object filters.
    @exclusivity(unchecked) var filterLookStartedAt: UInt64 = 0
    /// Registrations whose dead object filter a look has reported and no post has yet ended.
    @exclusivity(unchecked) var reportedFilterDeaths: Set<UInt64> = []
    /// The latest checkpoints, remembered for a viewer attached later.
    @exclusivity(unchecked) var rememberedCheckpoints = CheckpointRing()
    /// Typed message registrations, also guarded by `lock`.
    let messages = MessageRegistry()
    /// Never reused in the process, unlike the center's address: what a thread's unwatched counters name.
    package let serial = ThreadContext.newCenterSerial()
    /// Moves on every change to `table` or `probes` (under `lock`); copies in `postCache` made
    /// from an older version are not used.
    let tableVersion = Atomic<UInt64>(0)
    let postCache = PostCache()
    /// What the center keeps of its history while no probe watches.
    let recordedHistory: CenterHistory
    /// See ``countsUnwatched``.
    let countingUnwatched = Atomic<Bool>(true)

    /// The one weak reference to this center that all its tokens share.
    let link = CenterLink()

    /// Creates an empty center.
    public init(label: String = "NotifyCenter") {
        self.label = label
        recordedHistory = CenterHistory(center: serial)
        link.attach(self)
        CenterRegistry.began(self)
    }

    deinit {
        endRegistrationsAtDeinit()
        CenterRegistry.ended(serial: serial)
    }

    /// Runs `body` with the lock held, then releases what the table let go of, unlocked.
    ///
    /// What the table let go of is in posting threads' copies too: those are taken back here, so
    /// that a removed registration's handler is released by the time its removal returns.
    @inline(__always)
    func locked<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        let result = body()
        let garbage = table.takeGarbage()
        guard !garbage.isEmpty else {
            lock.unlock()
            return result
        }
        let version = tableChanged()
        lock.unlock()
        // No posting thread read what was let go of: no copy holds it.
        guard garbage.sweepsPostCopies else {
            withExtendedLifetime(garbage) {}
            return result
        }
        let stale = postCache.sweep(before: version)
        withExtendedLifetime((garbage, stale)) {}
        return result
    }

    /// Marks every post copy stale; must be called with `lock` held. Returns the new version.
    @inline(__always)
    @discardableResult
    func tableChanged() -> UInt64 {
        tableVersion.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
    }

    /// The number of live registrations.
    public var registrationCount: Int {
        lock.withLock { table.liveCount + messages.count }
    }
}

extension NotifyCenter: Hashable {
    /// Identity, as Foundation's centers compare.
    public static func == (lhs: NotifyCenter, rhs: NotifyCenter) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

extension NotifyCenter: CustomDebugStringConvertible, CustomStringConvertible {
    public var description: String {
        "<NotifyCenter \"\(label)\": \(registrationCount) registrations>"
    }

    /// Every live registration, one per line, in registration order: id, name (or `*`), object
    /// (or `*`), kind, observer, delivery target, callsite and token state; then the typed message
    /// registrations: id, message type, subject (or `*`), kind, target and callsite.
    public var debugDescription: String {
        let (registrations, messageRegistrations) = lock.withLock { (table.all, messages.all) }
        var lines = [
            "<NotifyCenter \"\(label)\": \(registrations.count + messageRegistrations.count) registrations>"
        ]
        for (registration, name) in registrations {
            lines.append("  " + registration.debugLine(name: name))
        }
        for registration in messageRegistrations {
            lines.append("  " + registration.debugLine)
        }
        return lines.joined(separator: "\n")
    }
}

extension Registration {
    /// The object filter: an instance, a value as the code would write it, `*` for none.
    private var objectDescription: String {
        if let valueFilter {
            return "\(TypeNames.name(of: valueFilter.valueType)) \(String(reflecting: valueFilter.value.base))"
        }
        return object.map { ProbeEvent.ObjectRef($0).description } ?? (hasObjectFilter ? "<deallocated>" : "*")
    }

    func debugLine(name: Notification.Name?) -> String {
        var parts = [
            "#\(id)", name?.rawValue ?? "*",
            "object: \(objectDescription)",
            kind.rawValue,
        ]
        if hasObserver {
            parts.append("observer: \(observer.map { ProbeEvent.ObjectRef($0).description } ?? "<deallocated>")")
        }
        parts.append("on \(target.description)")
        parts.append("at \(callsite)")
        switch tokenState.load(ordering: .relaxed) {
        case TokenState.dropped: parts.append("[token dropped]")
        case TokenState.boundToOwner:
            parts.append(observer == nil ? "[ends with its owner: deallocated]" : "[ends with its owner]")
        default: break
        }
        return parts.joined(separator: "  ")
    }
}
