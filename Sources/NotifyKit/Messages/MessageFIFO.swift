/// A growable ring buffer: O(1) append and removal at the front, for mailboxes and message buffers.
struct MessageFIFO<Element> {
    private var slots: ContiguousArray<Element?> = []
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ element: consuming Element) {
        if count == slots.count { grow() }
        var tail = head + count
        if tail >= slots.count { tail -= slots.count }
        slots[tail] = element
        count += 1
    }

    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head].take()
        head += 1
        if head == slots.count { head = 0 }
        count -= 1
        // After a burst, give the burst's memory back.
        if count == 0 && slots.count > 64 { self = MessageFIFO() }
        return element
    }

    /// Removes every element and returns them, so they can be released outside a lock.
    mutating func removeAll() -> MessageFIFO {
        let all = self
        self = MessageFIFO()
        return all
    }

    private mutating func grow() {
        var grown = ContiguousArray<Element?>(repeating: nil, count: Swift.max(8, slots.count * 2))
        var index = 0
        while index < count {
            var source = head + index
            if source >= slots.count { source -= slots.count }
            grown[index] = slots[source].take()
            index += 1
        }
        slots = grown
        head = 0
    }
}
