package import NotifyWire

/// The last raw trace events, for the Events view: a fixed ring, so a fast stream costs no memory
/// growth (k9s#1188 is what an unbounded log view does).
package struct EventTail: Sendable {
    /// How many events are kept.
    package let capacity: Int
    private var storage: [TraceEvent] = []
    private var head = 0
    /// Events pushed out of the ring so far.
    package private(set) var dropped: UInt64 = 0

    /// Creates an empty tail.
    package init(capacity: Int = 1_000) {
        self.capacity = max(1, capacity)
        storage.reserveCapacity(self.capacity)
    }

    /// Adds an event, dropping the oldest when full. Definitions and headers are skipped: they
    /// are not events.
    package mutating func append(_ event: TraceEvent) {
        guard event.seq != nil else { return }
        if storage.count < capacity {
            storage.append(event)
        } else {
            storage[head] = event
            head = (head + 1) % capacity
            dropped += 1
        }
    }

    /// Adds a batch. When the batch alone fills the ring, only its newest `capacity` events are
    /// copied in; the rest count as dropped without being copied, as if pushed through.
    package mutating func append(contentsOf batch: [TraceEvent]) {
        var events = 0
        for index in batch.indices where batch[index].seq != nil { events += 1 }
        guard events >= capacity else {
            for index in batch.indices { append(batch[index]) }
            return
        }
        dropped += UInt64(storage.count + events - capacity)
        var newest: [TraceEvent] = []
        newest.reserveCapacity(capacity)
        var index = batch.endIndex
        while newest.count < capacity, index > batch.startIndex {
            index -= 1
            if batch[index].seq != nil { newest.append(batch[index]) }
        }
        storage = newest.reversed()
        head = 0
    }

    /// Counts a batch's events as pushed through without keeping them: for a caller that appends
    /// at least ``capacity`` newer events next, which would push these out anyway.
    package mutating func pass(over batch: [TraceEvent]) {
        for index in batch.indices where batch[index].seq != nil { dropped += 1 }
    }

    /// The kept events, oldest first.
    package var events: [TraceEvent] {
        Array(storage[head...] + storage[..<head])
    }

    /// How many events are kept now.
    package var count: Int { storage.count }
}
