// What each kind of event carries: registrations, posts, deliveries, queue activity, and the
// references and call sites they name.

extension ProbeEvent {
    /// How a registration delivers: the forms of `addObserver` and `observe`.
    public enum RegistrationKind: String, Sendable, CaseIterable {
        /// `addObserver(_:action:name:object:)`: a weakly held target and an unapplied method.
        case target
        /// `addObserver(forName:object:queue:using:)` and its `deliverOn:` form: the center owns the block.
        case block
        /// `observe(_:object:owner:deliverOn:_:)`: the handler receives a weakly held owner.
        case ownerBound = "owner"
        /// `notifications(named:object:bufferSize:)`: an async sequence's iterator.
        case sequence
        /// `addObserver(of:for:using:)` of a `MainActorMessage`: runs inside `post`, on the main actor.
        case mainActorMessage = "message-main"
        /// `addObserver(of:for:using:)` of an `AsyncMessage`: runs later, in post order, one call at a time.
        case asyncMessage = "message-async"
        /// `messages(of:for:bufferSize:)`: a typed message sequence's iterator.
        case messageSequence = "message-sequence"

        /// True for the typed message forms.
        public var isMessage: Bool {
            switch self {
            case .mainActorMessage, .asyncMessage, .messageSequence: true
            case .target, .block, .ownerBound, .sequence: false
            }
        }
    }

    /// Which protocol a posted typed message conforms to.
    public enum MessageKind: String, Sendable, CaseIterable {
        /// `NotifyCenter.MainActorMessage`: delivered synchronously inside `post`.
        case mainActor = "main"
        /// `NotifyCenter.AsyncMessage`: `post` enqueues; observers run later.
        case async
    }

    /// Why a registration ended.
    public enum RemovalReason: String, Sendable, CaseIterable {
        /// `removeObserver(_:)` or `removeObserver(_:name:object:)`.
        case explicit
        /// `NotifyToken.cancel()`.
        case tokenCancelled = "token-cancelled"
        /// The target or owner deallocated; found at the next post that would have reached it.
        case observerDeallocated = "observer-deallocated"
        /// The object filter deallocated; found at the next post of that name while a probe is
        /// attached, or, unprobed, when a post's object reuses the dead filter's address.
        case objectDeallocated = "object-deallocated"
        /// An async sequence's iterator went away or its task was cancelled.
        case sequenceEnded = "sequence-ended"
        /// The center itself deallocated with the registration live.
        case centerDeallocated = "center-ended"
    }

    /// Where a registration's handler runs, without the queue or thread itself.
    public enum TargetKind: String, Sendable, CaseIterable {
        case posting, operationQueue = "operation-queue", dispatchQueue = "dispatch-queue", thread, main
        /// An `AsyncMessage` observer's own serial task on Swift's cooperative pool.
        case task
    }

    /// An object as events describe it: display text only, since addresses are reused.
    ///
    /// A `Hashable` value used as an object filter or posted as an object has no address: it is
    /// described by its type, address 0, and a serial that equal values share.
    public struct ObjectRef: Sendable, Hashable, CustomStringConvertible {
        /// The object's address when the event happened; 0 for a value.
        public let address: UInt
        /// The object's (or value's) dynamic type; ``typeName`` formats it.
        public let type: any Any.Type
        /// A number the center gives each object it has seen as an observer or object filter (reused
        /// only after 2³² others): two refs with the same address but different serials are different
        /// objects. 0 when the center has no serial for the object (a posted object nobody filters on).
        public private(set) var serial: UInt64

        public init(address: UInt, type: any AnyObject.Type, serial: UInt64 = 0) {
            self.address = address
            self.type = type
            self.serial = serial
        }

        init(_ object: AnyObject, serial: UInt64 = 0) {
            address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
            type = Swift.type(of: object)
            self.serial = serial
        }

        /// A value: no address, its type, and the serial equal values share (0 if none was given).
        init(valueOfType type: any Any.Type, serial: UInt64) {
            address = 0
            self.type = type
            self.serial = serial
        }

        /// The same object under another serial.
        package func withSerial(_ serial: UInt64) -> ProbeEvent.ObjectRef {
            var copy = self
            copy.serial = serial
            return copy
        }

        /// The type as `String(reflecting:)` prints it, e.g. `Demo.CartScreen`; cached per type.
        public var typeName: String { TypeNames.name(of: type) }

        public var description: String {
            address == 0 ? "\(typeName) value" : "\(typeName)@0x\(String(address, radix: 16))"
        }

        public static func == (lhs: ProbeEvent.ObjectRef, rhs: ProbeEvent.ObjectRef) -> Bool {
            lhs.address == rhs.address && lhs.serial == rhs.serial
                && ObjectIdentifier(lhs.type) == ObjectIdentifier(rhs.type)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(address)
            hasher.combine(serial)
            hasher.combine(ObjectIdentifier(type))
        }
    }

    /// A source location taken from `#fileID` and `#line` defaults; kept as the static string the
    /// compiler made, so stamping an event with it copies no text.
    public struct Callsite: Sendable, Hashable, CustomStringConvertible {
        private let staticFile: StaticString
        /// The line.
        public let line: UInt

        public init(file: StaticString, line: UInt) {
            self.staticFile = file
            self.line = line
        }

        /// The `#fileID`, such as `Demo/CartScreen.swift`.
        public var file: String { staticFile.description }

        public var description: String { "\(file):\(line)" }

        public static func == (lhs: ProbeEvent.Callsite, rhs: ProbeEvent.Callsite) -> Bool {
            guard lhs.line == rhs.line, lhs.staticFile.utf8CodeUnitCount == rhs.staticFile.utf8CodeUnitCount else {
                return false
            }
            if lhs.staticFile.hasPointerRepresentation && rhs.staticFile.hasPointerRepresentation
                && lhs.staticFile.utf8Start == rhs.staticFile.utf8Start
            {
                return true
            }
            return lhs.file == rhs.file
        }

        /// Hashes what is cheap and content-determined, so exporters can key on callsites per event.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(line)
            hasher.combine(staticFile.utf8CodeUnitCount)
        }
    }

    /// A registration as a probe sees it.
    public struct Registration: Sendable {
        /// Unique in its center and never reused.
        public let id: UInt64
        /// The name observed; nil observes every name.
        public let name: String?
        public let kind: ProbeEvent.RegistrationKind
        /// The target or owner; nil for blocks and sequences.
        public let observer: ProbeEvent.ObjectRef?
        /// The object filter; nil matches every sender.
        public let object: ProbeEvent.ObjectRef?
        public let target: ProbeEvent.TargetKind
        /// The queue label, operation-queue name or delivery-thread name; nil for posting and main.
        public let targetLabel: String?
        public let callsite: ProbeEvent.Callsite
        /// True when sent as part of the snapshot a newly attached probe receives.
        public let preexisting: Bool
        /// True when the handler's closure context is the owner itself (`{ owner.x }` or
        /// `owner.method`): the center then keeps its own observer alive.
        public let capturesObserverStrongly: Bool
        /// The app declared that the handler must run on the main thread; a delivery elsewhere is a bug.
        public let mainThreadOnly: Bool
        /// The registration's token was released while it stayed registered (reported in snapshots,
        /// where the `tokenDropped` event itself happened before the probe attached). For an
        /// owner-bound registration this is by design: it ends with its owner.
        public let tokenDropped: Bool
        /// `CLOCK_MONOTONIC` nanoseconds when the app made the registration; in a snapshot, earlier
        /// than the event's own timestamp.
        public let registeredAt: UInt64
        /// In a snapshot, the deliveries made while no probe watched (see `Registration.deliveries`
        /// for how exact); 0 otherwise.
        public internal(set) var deliveries: UInt64 = 0
    }

    /// A post as a probe sees it.
    public struct Post: Sendable {
        /// Unique in the process, whichever center it was posted to; deliveries of this post carry it.
        public let postID: UInt64
        public let name: String
        public let object: ProbeEvent.ObjectRef?
        public let hasUserInfo: Bool
        /// How many registrations matched when the post took its snapshot.
        public let matched: Int
        /// 1 for a post from outside any handler, 2 for a post made inside a handler, and so on.
        public let depth: Int
        /// The post whose handler made this post, 0 when none.
        public let parentPostID: UInt64
        public let callsite: ProbeEvent.Callsite
        /// The protocol of a typed message, whose `name` is then the message type's name
        /// (`String(reflecting:)`); nil for a `Notification`.
        public var message: ProbeEvent.MessageKind? = nil
    }

    /// One handler run as a probe sees it; the event's `thread` is the delivering thread.
    public struct Delivery: Sendable {
        public let postID: UInt64
        public let registration: UInt64
        public let name: String
        public let postingThread: UInt64
        public let target: ProbeEvent.TargetKind
        /// Monotonic nanoseconds when the handler started.
        public let start: UInt64
        /// Nanoseconds the handler ran.
        public let duration: UInt64
        /// Nanoseconds between the hand-off and the start: queueing delay, 0 for inline delivery.
        public let wait: UInt64
        /// The post depth on the delivering thread while the handler ran.
        public let depth: Int
    }

    /// A `removeObserver` call that ended nothing: a likely bug the dashboard reports.
    public struct MissedRemoval: Sendable {
        public let observer: ProbeEvent.ObjectRef
        public let name: String?
        public let callsite: ProbeEvent.Callsite
    }

    /// What a ``NotifyQueue`` did.
    public struct QueueActivity: Sendable {
        public enum Action: String, Sendable, CaseIterable {
            /// A notification was added to the queue (or posted at once, for `.now`).
            case enqueued
            /// Pending notifications were replaced by a newer one; `count` says how many.
            case coalesced
            /// `dequeueNotifications(matching:coalesceMask:)` removed `count` pending notifications.
            case dequeued
            /// A run-loop pass posted `count` pending notifications.
            case flushed
        }

        /// Identifies the queue within the process; never reused.
        public let queueID: UInt64
        public let action: Action
        public let name: String?
        /// "now", "asap" or "idle"; nil for dequeues and flushes.
        public let style: String?
        public let count: Int
        /// Notifications still pending after the action.
        public let pending: Int
    }

    /// Enqueues of one call site that a ``NotifyQueue`` coalesced away: newer ones replaced them, and
    /// the survivor was posted as `postID`.
    public struct QueueMerge: Sendable {
        /// The queue, as ``ProbeEvent/QueueActivity/queueID``.
        public let queueID: UInt64
        /// The post the enqueues were merged into.
        public let postID: UInt64
        /// The merged `enqueue` calls' site.
        public let callsite: ProbeEvent.Callsite
        /// How many enqueues from `callsite` were merged.
        public let count: Int
        /// Monotonic nanoseconds when the first of them was made.
        public let enqueuedAt: UInt64
    }

    /// One typed message queued for one observer.
    public struct MessageEnqueue: Sendable {
        public let postID: UInt64
        public let registration: UInt64
        /// Messages waiting for this observer after the enqueue, this one included.
        public let pending: Int
        /// The buffer was full and its oldest message was dropped to make room (sequences only).
        public let droppedOldest: Bool

        public init(postID: UInt64, registration: UInt64, pending: Int, droppedOldest: Bool) {
            self.postID = postID
            self.registration = registration
            self.pending = pending
            self.droppedOldest = droppedOldest
        }
    }
}
