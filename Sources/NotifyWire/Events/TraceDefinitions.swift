/// A thread's introduction: later lines name the thread by ``id`` only.
///
/// Mirrors NotifyKit's `NotifyThread`. Thread names are labels, not identity (Linux keeps 15 bytes
/// of a name, and pool threads share names), so everything that lasts keys on ``id``.
public struct TraceThread: Sendable, Hashable {
    /// The event's sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds when the producer introduced the thread.
    public var timestamp: UInt64
    /// Stable for the life of the process and never reused; what other lines' `thread` fields hold.
    public var id: UInt64
    /// The kernel thread id (`gettid`), as `top -H` shows it.
    public var systemID: Int32
    /// The thread's name when first seen.
    public var name: String
    /// True only for the process's initial thread.
    public var isMain: Bool

    /// Creates a thread introduction.
    public init(seq: UInt64, timestamp: UInt64, id: UInt64, systemID: Int32, name: String, isMain: Bool) {
        self.seq = seq
        self.timestamp = timestamp
        self.id = id
        self.systemID = systemID
        self.name = name
        self.isMain = isMain
    }
}

/// A type name's introduction, so objects repeat a small id instead of a long name.
public struct TraceType: Sendable, Hashable {
    /// Unique within the stream; what ``TraceObject/type`` holds.
    public var id: UInt64
    /// The type as `String(reflecting:)` prints it, such as `Demo.CartScreen`.
    public var name: String

    /// Creates a type introduction.
    public init(id: UInt64, name: String) {
        self.id = id
        self.name = name
    }
}

/// An object's introduction: an address and a type, referred to by id from registrations and posts.
///
/// The address is display text only. Addresses are reused after deallocation, so a producer
/// introduces a new id when a different object appears at an old address.
public struct TraceObject: Sendable, Hashable {
    /// Unique within the stream; what `observer` and `object` fields hold.
    public var id: UInt64
    /// The ``TraceType/id`` of the object's dynamic type.
    public var type: UInt64
    /// The object's address when it was introduced; written as `"0x…"` hex on the wire.
    public var address: UInt64

    /// Creates an object introduction.
    public init(id: UInt64, type: UInt64, address: UInt64) {
        self.id = id
        self.type = type
        self.address = address
    }
}

/// A source location's introduction, referred to by id from registrations, posts and missed removals.
public struct TraceCallsite: Sendable, Hashable {
    /// Unique within the stream; what `callsite` fields hold.
    public var id: UInt64
    /// The `#fileID`, such as `Demo/Cart.swift`.
    public var file: String
    /// The line.
    public var line: UInt

    /// Creates a callsite introduction.
    public init(id: UInt64, file: String, line: UInt) {
        self.id = id
        self.file = file
        self.line = line
    }
}

/// A center's introduction in a stream of several (format 1.5, from NotifyKit 0.2): a center the
/// header does not list, made after the stream began or not named at the start. From this line on,
/// a `register` or `post` line's `center` equal to `index` is this center. An index is never given
/// to two centers in one stream.
public struct TraceCenter: Sendable, Hashable {
    /// The index `center` fields hold; the header's `centers` take the first ones.
    public var index: UInt32
    /// The center's label.
    public var label: String

    /// Creates a center introduction.
    public init(index: UInt32, label: String) {
        self.index = index
        self.label = label
    }
}
