import NotifyModel
package import NotifyWire

/// The last raw trace events, for the Events view: NotifyModel's `RingBuffer`, so a fast stream
/// costs no memory growth (k9s#1188 is what an unbounded log view does). Definitions and headers
/// are not events and are not kept.
package struct EventTail: Sendable {
    private var ring: RingBuffer<TraceEvent>
    /// Events counted by ``pass(over:)``.
    private var passedOver: UInt64 = 0

    /// Creates an empty tail.
    package init(capacity: Int = 1_000) {
        ring = RingBuffer(capacity: capacity)
    }

    /// How many events are kept.
    package var capacity: Int { ring.capacity }

    /// Events pushed out of the ring so far.
    package var dropped: UInt64 { ring.overwritten &+ passedOver }

    /// Adds an event, dropping the oldest when full.
    package mutating func append(_ event: TraceEvent) {
        guard event.seq != nil else { return }
        ring.append(event)
    }

    /// Adds a batch. When the batch alone fills the ring, only its newest `capacity` events are
    /// copied in; the rest count as dropped without being copied, as if pushed through.
    package mutating func append(contentsOf batch: [TraceEvent]) {
        ring.append(contentsOf: batch.lazy.filter { $0.seq != nil })
    }

    /// Counts a batch's events as pushed through without keeping them: for a caller that appends
    /// at least ``capacity`` newer events next, which would push these out anyway.
    package mutating func pass(over batch: [TraceEvent]) {
        for index in batch.indices where batch[index].seq != nil { passedOver &+= 1 }
    }

    /// The kept events, oldest first.
    package var events: [TraceEvent] { ring.elements }

    /// How many events are kept now.
    package var count: Int { ring.count }
}
