/// A registration as a trace records it: it began, or it was live when the stream started.
///
/// Mirrors NotifyKit's `ProbeEvent.Registration`, with objects and the callsite replaced by the ids of
/// their introductions. A viewer builds its observer table from these and ``TraceRemoval``s.
public struct TraceRegistration: Sendable, Hashable {
    /// The event's sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds when the registration was made (or reported, if ``preexisting``).
    public var timestamp: UInt64
    /// The ``TraceThread/id`` of the registering thread.
    public var thread: UInt64
    /// Unique in its stream, across its centers, and never reused; removals and deliveries refer
    /// to it.
    public var id: UInt64
    /// The name observed; nil observes every name.
    public var name: String?
    /// Which form of `addObserver` or `observe` made the registration.
    public var kind: TraceRegistrationKind
    /// The ``TraceObject/id`` of the target or owner; nil for blocks and sequences.
    public var observer: UInt64?
    /// The ``TraceObject/id`` of the object filter; nil matches every sender.
    public var object: UInt64?
    /// Where the handler runs.
    public var target: TraceTargetKind
    /// The queue label, operation-queue name or delivery-thread name; nil for posting and main.
    public var targetLabel: String?
    /// The ``TraceCallsite/id`` of the registering call.
    public var callsite: UInt64
    /// True when the registration was live before the stream started: part of the snapshot a
    /// viewer receives on attach, not something that just happened.
    public var preexisting: Bool
    /// True when the handler's closure captures the observer strongly, so the center keeps the
    /// observer alive: a likely leak the dashboard flags.
    public var capturesObserverStrongly: Bool
    /// The app declared the handler main-thread-only (UI code): a delivery elsewhere is a bug.
    public var mainThreadOnly: Bool
    /// Monotonic nanoseconds when the app made the registration, as the app remembers it; nil
    /// when unknown (then ``timestamp`` is the best known). A snapshot's ``timestamp`` is the
    /// moment of the snapshot, this is the registration's real time.
    public var registeredAt: UInt64?
    /// Handlers the registration ran before the snapshot a late viewer receives; nil when not
    /// told (a registration the stream saw begin, or a producer before format 1.4). Only
    /// ``preexisting`` registrations carry it.
    public var deliveries: UInt64?
    /// The index of the registration's center in the header's `centers`; nil in a one-center stream.
    public var center: UInt32?

    /// When the registration was made: ``registeredAt`` when known, else ``timestamp``.
    public var registrationTime: UInt64 { registeredAt ?? timestamp }

    /// Creates a registration event.
    public init(
        seq: UInt64, timestamp: UInt64, thread: UInt64, id: UInt64, name: String?,
        kind: TraceRegistrationKind, observer: UInt64?, object: UInt64?, target: TraceTargetKind,
        targetLabel: String?, callsite: UInt64, preexisting: Bool, capturesObserverStrongly: Bool,
        mainThreadOnly: Bool = false, registeredAt: UInt64? = nil, deliveries: UInt64? = nil,
        center: UInt32? = nil
    ) {
        self.center = center
        self.deliveries = deliveries
        self.mainThreadOnly = mainThreadOnly
        self.registeredAt = registeredAt
        self.seq = seq
        self.timestamp = timestamp
        self.thread = thread
        self.id = id
        self.name = name
        self.kind = kind
        self.observer = observer
        self.object = object
        self.target = target
        self.targetLabel = targetLabel
        self.callsite = callsite
        self.preexisting = preexisting
        self.capturesObserverStrongly = capturesObserverStrongly
    }
}

/// How a registration delivers; raw values equal NotifyKit's `ProbeEvent.RegistrationKind`.
public enum TraceRegistrationKind: String, Sendable, Hashable, CaseIterable {
    /// A weakly held target and an unapplied method.
    case target
    /// A block the center owns, ended by its token.
    case block
    /// A handler that receives a weakly held owner (`"owner"` on the wire).
    case ownerBound = "owner"
    /// An async sequence's iterator.
    case sequence
    /// An observer of a `MainActorMessage`: runs inside `post`, on the main actor (format 1.2).
    case mainActorMessage = "message-main"
    /// An observer of an `AsyncMessage`: runs later, in post order, in its own serial task (format 1.2).
    case asyncMessage = "message-async"
    /// A typed message sequence's iterator, `messages(of:for:bufferSize:)` (format 1.2).
    case messageSequence = "message-sequence"

    /// True for the typed message forms, whose registration name is a message type's name.
    public var isMessage: Bool {
        switch self {
        case .mainActorMessage, .asyncMessage, .messageSequence: true
        case .target, .block, .ownerBound, .sequence: false
        }
    }
}

/// Where a handler runs; raw values equal NotifyKit's `ProbeEvent.TargetKind`.
public enum TraceTargetKind: String, Sendable, Hashable, CaseIterable {
    /// On the posting thread, inside `post`.
    case posting
    /// On an operation queue; `post` waits for it.
    case operationQueue = "operation-queue"
    /// Asynchronously on a dispatch queue.
    case dispatchQueue = "dispatch-queue"
    /// Asynchronously on a delivery thread with its own run loop.
    case thread
    /// Asynchronously on the main queue.
    case main
    /// In an `AsyncMessage` observer's own serial task on the cooperative pool (format 1.2).
    case task
}
