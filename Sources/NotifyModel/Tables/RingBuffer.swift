/// A fixed-capacity ring that overwrites its oldest element: the bounded logs and histories of the
/// model, so an endless stream never grows them.
///
/// Storage is an array, so copying a ring (as copying the model does) is a retain, not a copy.
/// Package-wide for the dashboard's own bounded logs.
package struct RingBuffer<Element: Sendable>: Sendable {
    @usableFromInline var storage: [Element] = []
    /// Index of the oldest element once the ring is full.
    @usableFromInline var head = 0
    /// The most elements kept.
    package let capacity: Int
    /// Elements overwritten (or passed over by ``append(contentsOf:)``) since the ring was made:
    /// detail the model dropped.
    package internal(set) var overwritten: UInt64 = 0

    /// Creates an empty ring that keeps at most `capacity` elements.
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Elements kept now.
    package var count: Int { storage.count }
    /// Whether nothing is kept.
    package var isEmpty: Bool { storage.isEmpty }

    /// Appends, overwriting the oldest element when full.
    @inline(__always)
    package mutating func append(_ element: Element) {
        if storage.count < capacity {
            // Grown by hand so the last growth stops at `capacity`, not at the next power of two.
            if storage.count == storage.capacity { storage.reserveCapacity(min(capacity, max(64, storage.count * 2))) }
            storage.append(element)
            return
        }
        storage[head] = element
        head += 1
        if head == capacity { head = 0 }
        overwritten &+= 1
    }

    /// Appends `elements` in order. When they alone fill the ring, only their newest `capacity` are
    /// copied in; the rest count as overwritten without being copied, as if pushed through.
    @inlinable
    package mutating func append(contentsOf elements: some BidirectionalCollection<Element>) {
        let count = elements.count
        guard count >= capacity else {
            for element in elements { append(element) }
            return
        }
        overwritten &+= UInt64(storage.count + count - capacity)
        storage = Array(elements.suffix(capacity))
        head = 0
    }

    /// The newest element.
    package var last: Element? {
        guard !storage.isEmpty else { return nil }
        return storage.count < capacity ? storage[storage.count - 1] : storage[(head + capacity - 1) % capacity]
    }

    /// Oldest first.
    package var elements: [Element] {
        guard storage.count == capacity, head != 0 else { return storage }
        return Array(storage[head...] + storage[..<head])
    }
}

extension RingBuffer: Equatable where Element: Equatable {
    /// Equal when they hold the same elements in the same order and dropped as many.
    package static func == (lhs: RingBuffer, rhs: RingBuffer) -> Bool {
        lhs.capacity == rhs.capacity && lhs.overwritten == rhs.overwritten && lhs.elements == rhs.elements
    }
}

extension RingBuffer: Hashable where Element: Hashable {
    package func hash(into hasher: inout Hasher) {
        hasher.combine(capacity)
        hasher.combine(overwritten)
        hasher.combine(elements)
    }
}
