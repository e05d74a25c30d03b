public import NotifyWire

/// One registration in the observer table: what it is, where it came from, and what it has done.
///
/// Why a row outlives removal: the table shows recently removed registrations (with why and
/// when) until they retire, so a registration that just vanished can still be inspected.
public struct ObserverRow: Sendable, Hashable, Identifiable {
    /// The registration id, unique in its stream and never reused.
    public let id: UInt64
    /// The index of its center in the header's centers; 0 in a stream of one center
    /// (``InspectorState/centerLabel(of:)`` names it).
    public let center: UInt32
    /// The name observed; nil for the `*` wildcard.
    public let name: String?
    /// Target, block, owner-bound or sequence.
    public let kind: TraceRegistrationKind
    /// The target or owner; nil for blocks and sequences.
    public let observer: ObjectInfo?
    /// The sender filter; nil matches every sender.
    public let objectFilter: ObjectInfo?
    /// Where the handler runs.
    public let target: TraceTargetKind
    /// The queue or thread label of ``target``.
    public let targetLabel: String?
    /// The registering call.
    public let callsite: CallsiteInfo
    /// Stream time of the registration, as the app remembers it (for a snapshot without it, the
    /// time of the snapshot).
    public let registeredAt: UInt64
    /// The registering thread.
    public let registeringThread: UInt64
    /// Live before the stream started (reported by a snapshot); its age counts from the app's
    /// registration time when the snapshot carried it.
    public let preexisting: Bool
    /// The handler's context is the observer itself, so the center keeps the observer alive.
    public let capturesObserverStrongly: Bool
    /// The app declared the handler must run on the main thread.
    public let mainThreadOnly: Bool
    /// Handler runs seen.
    public internal(set) var deliveries: UInt64 = 0
    /// Stream time the last run ended.
    public internal(set) var lastDeliveryAt: UInt64?
    /// The thread of the last run.
    public internal(set) var lastDeliveringThread: UInt64?
    /// Whether the app still holds the token.
    public internal(set) var token: TokenState
    /// Why and when it ended; nil while live.
    public internal(set) var removal: RemovalInfo?
    /// Typed messages waiting in its mailbox or sequence buffer now (0 for the other kinds and once
    /// it ended). An async observer's mailbox shrinks with each run; a message sequence's is the
    /// depth its last enqueue reported, since its iterator's reads are not in the trace.
    public internal(set) var pendingMessages = 0
    /// The deepest its mailbox or buffer has been.
    public internal(set) var maximumPendingMessages = 0
    /// Messages queued for it.
    public internal(set) var enqueuedMessages: UInt64 = 0
    /// Messages its full sequence buffer dropped (the oldest) to take newer ones: never delivered.
    public internal(set) var droppedMessages: UInt64 = 0

    // Bookkeeping of the fold and the rules.
    var nameSlot: Int
    var namePostsAtRegistration: UInt64
    var deliveriesAtTokenDrop: UInt64 = 0
    var flags: RowFlags = []
    /// False for a freed slot of the table.
    var occupied = true

    /// True until the registration ends.
    public var isLive: Bool { removal == nil }

    /// The token's state while the registration is live (``TokenState/description``); once it
    /// ended, `removed`, or `cancelled` when its token ended it: an ended registration's token
    /// holds nothing. `-` for a registration with no token.
    public var tokenText: String {
        switch token {
        case .none: return token.description
        case .cancelled: return "cancelled"
        default: return removal == nil ? token.description : "removed"
        }
    }
    /// True for typed message observers and sequences, whose name is a message type's name.
    public var isMessage: Bool { kind.isMessage }
    /// The name as the table shows it: `"*"` for the wildcard.
    public var displayName: String { name ?? "*" }

    /// Nanoseconds since it registered, at stream time `now`.
    public func age(at now: UInt64) -> UInt64 { now >= registeredAt ? now - registeredAt : 0 }

    /// What a freed slot holds.
    static let vacant: ObserverRow = {
        var row = ObserverRow(
            TraceRegistration(
                seq: 0, timestamp: 0, thread: 0, id: 0, name: nil, kind: .block, observer: nil, object: nil,
                target: .posting, targetLabel: nil, callsite: 0, preexisting: false, capturesObserverStrongly: false,
                mainThreadOnly: false),
            observer: nil, objectFilter: nil, callsite: CallsiteInfo(id: 0, file: "", line: 0), nameSlot: 0,
            namePosts: 0)
        row.occupied = false
        return row
    }()

    init(
        _ registration: TraceRegistration, observer: ObjectInfo?, objectFilter: ObjectInfo?, callsite: CallsiteInfo,
        nameSlot: Int, namePosts: UInt64, center: UInt32 = 0
    ) {
        id = registration.id
        self.center = center
        name = registration.name
        kind = registration.kind
        self.observer = observer
        self.objectFilter = objectFilter
        target = registration.target
        targetLabel = registration.targetLabel
        self.callsite = callsite
        registeredAt = registration.registrationTime
        registeringThread = registration.thread
        preexisting = registration.preexisting
        capturesObserverStrongly = registration.capturesObserverStrongly
        mainThreadOnly = registration.mainThreadOnly
        token = registration.kind == .target ? .none : .held
        self.nameSlot = nameSlot
        namePostsAtRegistration = namePosts
    }
}

/// Whether the app still holds a registration's token.
public enum TokenState: Sendable, Hashable, CustomStringConvertible {
    /// The app holds it: it can end the registration.
    case held
    /// Released while the registration was live: only a bulk removal can end it now.
    case dropped(at: UInt64)
    /// Cancelled: the registration ended through it.
    case cancelled(at: UInt64)
    /// Target–action registrations have no token; `removeObserver(target)` ends them.
    case none
    /// An owner-bound registration's token was released: it ends with its owner, by design.
    case boundToOwner(at: UInt64)

    /// `"held"`, `"dropped"`, `"cancelled"`, `"owner"` or `"-"`.
    public var description: String {
        switch self {
        case .held: "held"
        case .dropped: "dropped"
        case .cancelled: "cancelled"
        case .none: "-"
        case .boundToOwner: "owner"
        }
    }

    /// True once released without cancelling.
    public var isDropped: Bool {
        if case .dropped = self { return true }
        return false
    }
}

/// How a registration ended.
public struct RemovalInfo: Sendable, Hashable {
    /// Why.
    public let reason: TraceRemovalReason
    /// Stream time.
    public let at: UInt64
    /// The thread that ended it.
    public let thread: UInt64
    /// The trace's callsite id of the `removeObserver` or `cancel()` call that ended it; nil when
    /// no call did, or the trace (before 1.5) does not carry it.
    public var callsite: UInt64? = nil
}

/// Per-row marks the rules set so the hot path tests a bit, not a dictionary.
struct RowFlags: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    /// Counted in an open R1 finding.
    static let orphaned = RowFlags(rawValue: 1 << 0)
    /// Member of a duplicate group with two or more live members (R5).
    static let duplicated = RowFlags(rawValue: 1 << 1)
    /// Counted in R4's k.
    static let selfRetaining = RowFlags(rawValue: 1 << 2)
    /// Counted in a duplicate group (R5).
    static let grouped = RowFlags(rawValue: 1 << 3)
    /// Counted in R6's (name, callsite) tally.
    static let tallied = RowFlags(rawValue: 1 << 4)
    /// The center found the object filter dead: the registration can no longer deliver.
    static let objectFilterDead = RowFlags(rawValue: 1 << 5)
}
