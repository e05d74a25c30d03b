import NotifyKit
import NotifySystem

/// The centers one inspector streams: those it was started with, and, unless left out, every other
/// center of the process, made before or after it started.
///
/// Each has a ring tag (a record names its center in one byte) and an index in the stream, never
/// reused. A center that ends gives its tag back once the exporter has drained its last records;
/// while every tag is taken, a new center is not streamed and is counted.
final class StreamedCenters: CenterWatcher, @unchecked Sendable {  // `state` is locked
    /// A center holding a tag.
    struct Member {
        weak var center: NotifyCenter?
        let serial: UInt64
        let label: String
        let index: UInt32
        var attachment: NotifyProbeAttachment?
        /// Set when the center ended; the tag is free once the exporter has drained after that.
        var ended = false
    }

    /// What the exporter learns at each pass.
    struct Changes {
        /// Centers given a tag since the last pass.
        var began: [(tag: UInt8, member: Member)] = []
        /// Tags whose center ended since the last pass.
        var ended: [UInt8] = []
        /// Centers not streamed since the last pass: every tag was taken.
        var notStreamed: UInt64 = 0
    }

    private struct State {
        var members = [Member?](repeating: nil, count: NotifyInspector.maximumCenters)
        var tagsBySerial: [UInt64: UInt8] = [:]
        var nextIndex: UInt32
        /// True while viewers are attached: members carry an attachment.
        var attached = false
        var changes = Changes()
        /// Centers alive now that got no tag.
        var unstreamed: Set<UInt64> = []
    }

    private let listed: [NotifyCenter]
    private let others: NotifyInspector.OtherCenters
    private let ring: EventRing
    private let state: LockedValue<State>

    init(listed: [NotifyCenter], others: NotifyInspector.OtherCenters, ring: EventRing) {
        self.listed = listed
        self.others = others
        self.ring = ring
        var initial = State(nextIndex: UInt32(listed.count))
        for (tag, center) in listed.enumerated() {
            initial.members[tag] = Member(
                center: center, serial: center.serial, label: center.label, index: UInt32(tag))
            initial.tagsBySerial[center.serial] = UInt8(tag)
        }
        state = LockedValue(initial)
    }

    /// Starts following the process's other centers, unless none is streamed.
    func start() {
        Self.listedByInspectors.withLock { counts in
            for center in listed { counts[center.serial, default: 0] += 1 }
        }
        guard others != .none else { return }
        let existing = CenterRegistry.watch(self)
        for center in existing { centerBegan(center) }
    }

    /// Stops following them; the members stay as they are.
    func stop() {
        Self.listedByInspectors.withLock { counts in
            for center in listed {
                counts[center.serial, default: 1] -= 1
                if counts[center.serial] == 0 { counts[center.serial] = nil }
            }
        }
        guard others != .none else { return }
        CenterRegistry.unwatch(self)
    }

    /// The centers that running inspectors list, by serial, with how many list each. A center
    /// another inspector lists is that one's: watching it too would take its events out of the
    /// unwatched history that inspector gives a late viewer. (An app runs one inspector; tests
    /// run several in one process.)
    private static let listedByInspectors = LockedValue<[UInt64: Int]>([:])

    func centerBegan(_ center: NotifyCenter) {
        guard !others.leavesOut(center.label) else { return }
        let listedElsewhere = Self.listedByInspectors.withLock { $0[center.serial] != nil }
        guard !listedElsewhere || listed.contains(where: { $0 === center }) else { return }
        state.withLock { state in
            guard state.tagsBySerial[center.serial] == nil, !state.unstreamed.contains(center.serial) else { return }
            guard let tag = state.members.firstIndex(where: { $0 == nil }), state.nextIndex < .max else {
                state.unstreamed.insert(center.serial)
                state.changes.notStreamed &+= 1
                return
            }
            var member = Member(center: center, serial: center.serial, label: center.label, index: state.nextIndex)
            state.nextIndex += 1
            if state.attached {
                member.attachment = center.attach(CenterTap(ring: ring, center: UInt8(tag)))
            }
            state.members[tag] = member
            state.tagsBySerial[center.serial] = UInt8(tag)
            state.changes.began.append((UInt8(tag), member))
        }
    }

    func centerEnded(serial: UInt64) {
        state.withLock { state in
            state.unstreamed.remove(serial)
            guard let tag = state.tagsBySerial[serial] else { return }
            state.members[Int(tag)]?.ended = true
            state.members[Int(tag)]?.attachment = nil
            state.changes.ended.append(tag)
        }
    }

    /// What changed since the last call.
    func takeChanges() -> Changes {
        state.withLock { state in
            defer { state.changes = Changes() }
            return state.changes
        }
    }

    /// Gives back `tags`, whose centers ended and whose last records were drained.
    func release(_ tags: [UInt8]) {
        guard !tags.isEmpty else { return }
        state.withLock { state in
            for tag in tags {
                guard let member = state.members[Int(tag)], member.ended else { continue }
                state.tagsBySerial[member.serial] = nil
                state.members[Int(tag)] = nil
            }
        }
    }

    /// Every member alive, with its tag, held strongly for as long as the caller keeps the result.
    func live() -> [(tag: UInt8, member: Member, center: NotifyCenter)] {
        state.withLock { Self.live($0) }
    }

    private static func live(_ state: State) -> [(tag: UInt8, member: Member, center: NotifyCenter)] {
        state.members.indices.compactMap { tag in
            guard let member = state.members[tag], !member.ended, let center = member.center else { return nil }
            return (UInt8(tag), member, center)
        }
    }

    /// The members' labels by index, as the stream introduced them; the listed ones first.
    var listedLabels: [String] { listed.map(\.label) }

    /// How many centers alive now are not streamed.
    var unstreamedCount: Int { state.withLock { $0.unstreamed.count } }

    /// Attaches the ring to every member: a viewer is attached. A center made from here on is
    /// attached as it is made.
    func attachAll() {
        // The centers are held outside the lock: one released last here must not end under it.
        let members = state.withLock { state in
            state.attached = true
            return Self.live(state)
        }
        var attachments: [(tag: UInt8, serial: UInt64, attachment: NotifyProbeAttachment)] = []
        for (tag, member, center) in members {
            attachments.append((tag, member.serial, center.attach(CenterTap(ring: ring, center: tag))))
        }
        let stale = state.withLock { state -> [NotifyProbeAttachment] in
            var stale: [NotifyProbeAttachment] = []
            for (tag, serial, attachment) in attachments {
                if let member = state.members[Int(tag)], member.serial == serial, !member.ended {
                    state.members[Int(tag)]?.attachment = attachment
                } else {
                    stale.append(attachment)
                }
            }
            return stale
        }
        stale.forEach { $0.detach() }
        withExtendedLifetime(members) {}
    }

    /// Detaches the ring from every member: no viewer is attached.
    func detachAll() {
        let attachments = state.withLock { state -> [NotifyProbeAttachment] in
            state.attached = false
            var attachments: [NotifyProbeAttachment] = []
            for tag in state.members.indices {
                if let attachment = state.members[tag]?.attachment { attachments.append(attachment) }
                state.members[tag]?.attachment = nil
            }
            return attachments
        }
        attachments.forEach { $0.detach() }
    }
}
