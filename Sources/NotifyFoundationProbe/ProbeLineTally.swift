/// The kinds of line ``ProbeProgram`` prints, each counted in the kernel (`@c[kind, cpu]`) as it
/// is printed; the raw value is the map's key and the place in a `C` line.
package enum ProbeLineKind: Int, CaseIterable, Sendable {
    case add, added, post, remove, deliveryStart, deliveryEnd, postEnd, queueAdd, operationStart, operationEnd
    case exec, centerEnd, typedAdd, typedAdded, asyncRunStart, asyncRunEnd, sequenceDelivery

    /// Whether losing such a line loses a registration (an orphan delivery or removal may be its).
    var registers: Bool {
        self == .add || self == .added || self == .queueAdd || self == .typedAdd || self == .typedAdded
    }
}

extension ProbeLine {
    /// The kind counted in the kernel for this line; nil for lines bpftrace itself prints.
    package var kind: ProbeLineKind? {
        switch self {
        case .add: .add
        case .added: .added
        case .post: .post
        case .remove: .remove
        case .deliveryStart: .deliveryStart
        case .deliveryEnd: .deliveryEnd
        case .postEnd: .postEnd
        case .queueAdd: .queueAdd
        case .operationStart: .operationStart
        case .operationEnd: .operationEnd
        case .exec: .exec
        case .centerEnd: .centerEnd
        case .typedAdd: .typedAdd
        case .typedAdded: .typedAdded
        case .asyncRunStart: .asyncRunStart
        case .asyncRunEnd: .asyncRunEnd
        case .sequenceDelivery: .sequenceDelivery
        case .ready, .lost, .counts, .finalCount: nil
        }
    }
}

/// The probe lines that reached the builder against those the kernel counted, per kind: what is
/// missing and was not reported lost yet becomes a loss of its own, so the losses shown are never
/// fewer than the lines missing, whatever dropped them (bpftrace's buffer, silently or not, the
/// end of the process, notifytop's bounds).
package struct ProbeLineTally: Sendable {
    /// Lines the builder received, by ``ProbeLineKind/rawValue``.
    package private(set) var seen = [UInt64](repeating: 0, count: ProbeLineKind.allCases.count)
    /// The kernel's latest counts.
    package private(set) var counted = [UInt64](repeating: 0, count: ProbeLineKind.allCases.count)
    /// The kernel's counts as bpftrace printed them on exiting, summed over CPUs.
    private var final = [UInt64](repeating: 0, count: ProbeLineKind.allCases.count)
    private var hasFinal = false
    /// Lines reported lost so far, for any reason.
    package private(set) var reported: UInt64 = 0
    /// Whether a loss was reported whose kinds no count has explained yet.
    package private(set) var lossUnexplained = false
    /// Whether a registration's line is known lost: from then on an orphan may be its.
    package private(set) var registrationsLost = false

    package init() {}

    /// Whether a delivery or removal that matches no registration seen may be taken for one made
    /// before attach: not while lines are known lost that could have been its registration.
    package var trustsOrphans: Bool { !lossUnexplained && !registrationsLost }

    mutating func see(_ kind: ProbeLineKind) { seen[kind.rawValue] &+= 1 }

    /// `count` lines were reported lost; `explained` when a count found them.
    mutating func report(_ count: UInt64, explained: Bool) {
        let (sum, overflow) = reported.addingReportingOverflow(count)
        reported = overflow ? .max : sum
        if !explained { lossUnexplained = true }
    }

    /// Takes the kernel's counts (`lines`, by kind) and returns how many missing lines no loss
    /// reported yet: the caller reports them (``report(_:explained:)``).
    mutating func reconcile(_ lines: [UInt64]) -> UInt64 {
        var missing: UInt64 = 0
        for kind in ProbeLineKind.allCases where kind.rawValue < lines.count {
            let index = kind.rawValue
            counted[index] = max(counted[index], lines[index])
            let short = counted[index] - min(seen[index], counted[index])
            if short > 0 && kind.registers { registrationsLost = true }
            let (sum, overflow) = missing.addingReportingOverflow(short)
            missing = overflow ? .max : sum
        }
        lossUnexplained = false
        return missing > reported ? missing - reported : 0
    }

    /// One line of the map bpftrace prints as it exits: `kind`'s count on one CPU.
    mutating func addFinal(kind: Int, count: UInt64) {
        guard final.indices.contains(kind) else { return }
        hasFinal = true
        let (sum, overflow) = final[kind].addingReportingOverflow(count)
        final[kind] = overflow ? .max : sum
    }

    /// The missing lines no loss reported, by the exit's counts when bpftrace printed them, else by
    /// the latest.
    mutating func reconcileFinal() -> UInt64 { reconcile(hasFinal ? final : counted) }
}
