import Foundation
import Synchronization

/// One live observation: what it matches and how it is called. Subclasses add the callout.
///
/// Fields are immutable after init except `isActive` and `tokenState`, which are atomics, so
/// posts read a registration with no lock while removal happens on another thread.
class Registration: @unchecked Sendable {  // immutable fields plus atomics; see above
    // Declaration order is layout order: small fields fill the tail of the 17-byte StaticString,
    // which keeps a block registration's instance at 120 bytes with `valueFilter`: one 128-byte
    // malloc chunk, as its 112 bytes were before.
    let id: UInt64
    weak let object: AnyObject?
    let file: StaticString
    /// Cleared when the registration ends; checked just before every callout.
    let isActive = Atomic<Bool>(true)
    /// 0 held, 1 dropped, 2 no token (target–action).
    let tokenState: Atomic<UInt8>
    /// The app declared that the handler must run on the main thread (UI code).
    let mainThreadOnly: Bool
    /// True for `.posting`: the handler runs inside `post` on the posting thread.
    let deliversInline: Bool
    let kind: ProbeEvent.RegistrationKind
    let line: UInt32
    /// ``ObjectSerials`` number of the object filter, set under the center's lock at insertion.
    var objectSerial: UInt32 = 0
    /// The table slot of the observed name (``RegistrationTable/wildcardSlot`` for every name).
    let slot: UInt32
    /// The object filter's address, 0 for none, ``valueKey`` for a value filter: compared with a
    /// posted object's before the weak reference is loaded.
    let objectKey: UInt
    let target: DeliveryTarget
    /// ``MonotonicClock`` nanoseconds when the app made it: what a late probe's snapshot reports,
    /// so its age is true.
    let registeredAt: UInt64
    /// The `Hashable` value the registration filters on, matched by `==`; nil for none or an instance.
    let valueFilter: ValueFilter?
    /// ``NotifyThread/id`` of the thread that made it.
    let registeringThread: UInt64
    /// Deliveries no probe saw. Each delivering thread adds with a load and a store, not an atomic
    /// add (which would cost the post path several nanoseconds): exact while one thread at a time
    /// delivers it; deliveries on two threads at the same instant may count once.
    let deliveries = Atomic<UInt64>(0)

    /// The object key of a value, posted or filtered on: no object lives at address 1.
    static let valueKey: UInt = 1

    init(
        id: UInt64, slot: UInt32, object: AnyObject?, valueFilter: ValueFilter? = nil, target: DeliveryTarget,
        kind: ProbeEvent.RegistrationKind, hasToken: Bool, mainThreadOnly: Bool, file: StaticString, line: UInt
    ) {
        self.mainThreadOnly = mainThreadOnly
        self.id = id
        self.slot = slot
        self.objectKey = valueFilter != nil ? Self.valueKey : object.map { UInt(bitPattern: ObjectIdentifier($0)) } ?? 0
        self.object = valueFilter != nil ? nil : object
        self.valueFilter = valueFilter
        self.target = target
        self.kind = kind
        self.deliversInline = target.isPosting
        self.file = file
        self.line = UInt32(truncatingIfNeeded: line)
        self.tokenState = Atomic(hasToken ? TokenState.held : TokenState.none)
        let context = ThreadContext.currentUnretained
        self.registeredAt = context._withUnsafeGuaranteedRef { $0.stamp() }
        self.registeringThread = context._withUnsafeGuaranteedRef { $0.thread.id }
    }

    /// Counts one delivery no probe saw.
    @inline(__always)
    final func countDelivery() {
        deliveries.store(deliveries.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }

    /// True when the registration filters on an object (an instance or a value).
    var hasObjectFilter: Bool { objectKey != 0 }

    /// True when the registration filters on an instance that has deallocated: it can never match again.
    var objectFilterDied: Bool { objectKey > Self.valueKey && object == nil }

    /// Whether a post of `notification`, whose object has key `postedKey`, passes the filter
    /// (the instance's liveness aside). Only a value filter reads the notification.
    @inline(__always)
    final func matchesObject(_ postedKey: UInt, of notification: Notification) -> Bool {
        guard matchesObject(postedKey) else { return false }
        guard postedKey == Self.valueKey, let valueFilter else { return true }
        return valueFilter.matches(posted: notification.object)
    }

    /// Whether a post whose object has address `postedKey` (0: no object) passes the filter,
    /// before the weak reference is checked.
    @inline(__always)
    final func matchesObject(_ postedKey: UInt) -> Bool {
        objectKey == 0 || objectKey == postedKey
    }

    /// ``ObjectSerials`` number of the observer; 0 for kinds without one.
    var observerSerial: UInt64 {
        get { 0 }
        set {}
    }

    /// The target or owner, when the kind has one and it is alive.
    var observer: AnyObject? { nil }
    /// True when the kind holds an observer weakly (so a nil `observer` means it deallocated).
    var hasObserver: Bool { false }
    /// The observer's identity at registration, for the center's by-observer index.
    var observerKey: ObjectIdentifier? { nil }

    /// Calls the handler on the calling thread. Returns false when the observer is gone.
    func invoke(_ notification: Notification) -> Bool { fatalError("subclass") }

    /// True when the handler's closure context is the observer itself.
    var capturesObserverStrongly: Bool { false }

    final var callsite: ProbeEvent.Callsite {
        ProbeEvent.Callsite(file: file, line: UInt(line))
    }

    /// - Parameter name: The name of the registration's slot, which only the table knows.
    /// - Parameter tokenDropped: Whether the event says the token was released; by default, whether it was.
    final func info(preexisting: Bool, name: Notification.Name?, tokenDropped: Bool? = nil) -> ProbeEvent.Registration {
        ProbeEvent.Registration(
            id: id, name: name?.rawValue, kind: kind,
            observer: observer.map { ProbeEvent.ObjectRef($0, serial: observerSerial) },
            object: objectRef,
            target: target.kind, targetLabel: target.label, callsite: callsite,
            preexisting: preexisting, capturesObserverStrongly: capturesObserverStrongly,
            mainThreadOnly: mainThreadOnly, tokenDropped: tokenDropped ?? tokenReleased, registeredAt: registeredAt,
            deliveries: deliveries.load(ordering: .relaxed))
    }

    /// The object filter as events report it: an instance, or a value as its type with no address.
    final var objectRef: ProbeEvent.ObjectRef? {
        if let valueFilter {
            return ProbeEvent.ObjectRef(valueOfType: valueFilter.valueType, serial: UInt64(objectSerial))
        }
        return object.map { ProbeEvent.ObjectRef($0, serial: UInt64(objectSerial)) }
    }

    /// True once the app released the token without cancelling (dropped, or bound to the owner).
    final var tokenReleased: Bool {
        let state = tokenState.load(ordering: .relaxed)
        return state == TokenState.dropped || state == TokenState.boundToOwner
    }
}

enum TokenState {
    static let held: UInt8 = 0
    /// Released while registered: only a bulk removal ends it now.
    static let dropped: UInt8 = 1
    static let none: UInt8 = 2
    /// An owner-bound registration's token was released: it ends with its owner, by design.
    static let boundToOwner: UInt8 = 3
}

/// A block the center owns: `addObserver(forName:…)` and async sequences.
final class BlockRegistration: Registration, @unchecked Sendable {
    let handler: @Sendable (Notification) -> Void

    init(
        id: UInt64, slot: UInt32, object: AnyObject?, valueFilter: ValueFilter? = nil, target: DeliveryTarget,
        kind: ProbeEvent.RegistrationKind, mainThreadOnly: Bool, handler: @escaping @Sendable (Notification) -> Void,
        file: StaticString, line: UInt
    ) {
        self.handler = handler
        super.init(
            id: id, slot: slot, object: object, valueFilter: valueFilter, target: target, kind: kind, hasToken: true,
            mainThreadOnly: mainThreadOnly, file: file, line: line)
    }

    override func invoke(_ notification: Notification) -> Bool {
        handler(notification)
        return true
    }
}

/// A weakly held target or owner, loaded strongly for the length of each callout.
final class ObserverRegistration: Registration, @unchecked Sendable {
    weak let weakObserver: AnyObject?
    let key: ObjectIdentifier
    let handler: (AnyObject, Notification) -> Void
    let contextIsObserver: Bool
    private var serial: UInt64 = 0

    init(
        id: UInt64, slot: UInt32, object: AnyObject?, valueFilter: ValueFilter? = nil, target: DeliveryTarget,
        kind: ProbeEvent.RegistrationKind, observer: AnyObject, contextIsObserver: Bool, mainThreadOnly: Bool,
        handler: @escaping (AnyObject, Notification) -> Void, file: StaticString, line: UInt
    ) {
        self.weakObserver = observer
        self.key = ObjectIdentifier(observer)
        self.handler = handler
        self.contextIsObserver = contextIsObserver
        super.init(
            id: id, slot: slot, object: object, valueFilter: valueFilter, target: target, kind: kind,
            hasToken: kind == .ownerBound,
            mainThreadOnly: mainThreadOnly, file: file, line: line)
    }

    override var observerSerial: UInt64 {
        get { serial }
        set { serial = newValue }
    }
    override var observer: AnyObject? { weakObserver }
    override var hasObserver: Bool { true }
    override var observerKey: ObjectIdentifier? { key }
    override var capturesObserverStrongly: Bool { contextIsObserver }

    override func invoke(_ notification: Notification) -> Bool {
        guard let observer = weakObserver else { return false }
        handler(observer, notification)
        return true
    }
}

/// Reads an owner-bound handler's closure context: a closure is a function pointer and a context,
/// and Swift uses a lone captured object as the context itself (`{ _, _ in owner.x }`).
///
/// The struct keeps the handler's own function type, so storing it adds no reabstraction thunk
/// (a fully generic `Any`-like parameter would, and the context read would be the thunk's).
struct OwnerHandler<Owner: AnyObject> {
    let handler: (Owner, Notification) -> Void

    var context: UnsafeRawPointer? {
        withUnsafeBytes(of: self) { bytes -> UnsafeRawPointer? in
            guard bytes.count == 2 * MemoryLayout<UInt>.size else { return nil }
            return UnsafeRawPointer(bitPattern: bytes.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self))
        }
    }
}
