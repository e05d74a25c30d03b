/// The object a registration filters on was found deallocated (format 1.5). The center holds an
/// object filter weakly and learns of its death only when it looks: at a post of the observed name
/// and at the producer's periodic look while a viewer is attached. Reported once; the `remove` line
/// that ends the registration comes with the next post of its name.
public struct TraceObjectDeath: Sendable, Hashable {
    /// The event's sequence number.
    public var seq: UInt64
    /// Monotonic nanoseconds when the center found the object dead.
    public var timestamp: UInt64
    /// The ``TraceThread/id`` of the thread that found it; for the inspector's periodic look, the
    /// thread that made the registration.
    public var thread: UInt64
    /// The ``TraceRegistration/id`` whose object filter died.
    public var registration: UInt64
    /// The ``TraceObject/id`` of the dead object; nil when the producer no longer knows it.
    public var object: UInt64?
    /// The last time the center saw the object alive: it died after this and at or before
    /// ``timestamp``.
    public var aliveAt: UInt64

    /// Creates an object-death event.
    public init(seq: UInt64, timestamp: UInt64, thread: UInt64, registration: UInt64, object: UInt64?, aliveAt: UInt64)
    {
        self.seq = seq
        self.timestamp = timestamp
        self.thread = thread
        self.registration = registration
        self.object = object
        self.aliveAt = aliveAt
    }
}
