/// Puts ``ProbeLine``s back in time order. bpftrace prints each CPU's lines in order, but not the
/// CPUs' lines among themselves: a thread that moved to another CPU (a post that waited for a queue)
/// can have its earlier lines printed after its later ones. Lines are held until they are
/// ``holdNanoseconds`` old and released oldest first; a line without a time (`READY`, a loss)
/// releases every held line before itself. At most ``capacity`` lines are held: a line beyond them
/// is dropped and counted (``dropped``), reported as a loss.
package struct ProbeLineOrder {
    /// How long a line waits for older lines from other CPUs.
    package let holdNanoseconds: UInt64
    /// The most lines held at once (a burst of ``holdNanoseconds``' worth of lines).
    package let capacity: Int
    /// Lines dropped because ``capacity`` lines were held.
    package private(set) var dropped: UInt64 = 0
    /// Held lines from `start` on, oldest first (lines of equal time keep their arrival order).
    private var held: [(time: UInt64, line: ProbeLine)] = []
    private var start = 0

    package init(holdNanoseconds: UInt64, capacity: Int = 131_072) {
        self.holdNanoseconds = holdNanoseconds
        self.capacity = capacity
    }

    /// Whether no line is held.
    package var isEmpty: Bool { start == held.endIndex }

    /// Holds `line`, or releases it (after every held line) when it has no time.
    package mutating func add(_ line: ProbeLine, releasing released: inout [ProbeLine]) {
        guard let time = line.time else {
            releaseAll(into: &released)
            released.append(line)
            return
        }
        guard held.count - start < capacity else {
            dropped += 1
            return
        }
        var index = held.endIndex
        while index > start, held[index - 1].time > time { index -= 1 }
        held.insert((time, line), at: index)
    }

    /// Releases, oldest first, the lines at least ``holdNanoseconds`` older than `now` (the probes'
    /// clock, `CLOCK_MONOTONIC`).
    package mutating func release(now: UInt64, into released: inout [ProbeLine]) {
        guard now > holdNanoseconds else { return }
        let cutoff = now - holdNanoseconds
        var end = start
        while end < held.endIndex, held[end].time <= cutoff { end += 1 }
        guard end > start else { return }
        released.append(contentsOf: held[start..<end].lazy.map(\.line))
        start = end
        // Released lines are dropped in bulk, not one by one.
        if start == held.endIndex {
            held.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 4_096 && start * 2 >= held.count {
            held.removeFirst(start)
            start = 0
        }
    }

    /// Releases every held line, oldest first.
    package mutating func releaseAll(into released: inout [ProbeLine]) {
        released.append(contentsOf: held[start...].lazy.map(\.line))
        held.removeAll(keepingCapacity: true)
        start = 0
    }
}

extension ProbeLine {
    /// When the probe fired; nil for lines bpftrace itself prints.
    package var time: UInt64? {
        switch self {
        case .add(let call, _, _, _, _), .post(let call, _, _, _), .remove(let call, _, _, _, _),
            .typedAdd(let call, _, _, _, _, _):
            call.time
        case .typedAdded(_, let time, _, _, _, _), .asyncRunStart(_, let time, _, _, _), .asyncRunEnd(_, let time, _),
            .sequenceDelivery(_, let time, _):
            time
        case .added(_, let time, _, _), .deliveryStart(_, let time, _, _, _, _), .deliveryEnd(_, let time),
            .postEnd(_, let time), .queueAdd(_, let time, _, _, _, _), .operationStart(_, let time, _, _),
            .operationEnd(_, let time), .exec(_, let time), .centerEnd(_, let time, _), .counts(let time, _):
            time
        case .ready, .lost, .finalCount: nil
        }
    }

    /// The thread the probe fired on; nil for lines bpftrace itself prints.
    package var thread: Int32? {
        switch self {
        case .add(let call, _, _, _, _), .post(let call, _, _, _), .remove(let call, _, _, _, _),
            .typedAdd(let call, _, _, _, _, _):
            call.thread
        case .typedAdded(let thread, _, _, _, _, _), .asyncRunStart(let thread, _, _, _, _),
            .asyncRunEnd(let thread, _, _), .sequenceDelivery(let thread, _, _):
            thread
        case .added(let thread, _, _, _), .deliveryStart(let thread, _, _, _, _, _), .deliveryEnd(let thread, _),
            .postEnd(let thread, _), .queueAdd(let thread, _, _, _, _, _), .operationStart(let thread, _, _, _),
            .operationEnd(let thread, _), .exec(let thread, _), .centerEnd(let thread, _, _):
            thread
        case .ready, .lost, .counts, .finalCount: nil
        }
    }
}
