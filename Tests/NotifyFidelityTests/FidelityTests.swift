import Dispatch
import Foundation
import NotifyTestSupport
import NotifyWire
import NotifyKit
import NotifyModel
import NotifyTraceApp
import NotifyTraceViewer
import Testing

private extension Notification.Name {
    static let cart = Notification.Name("fid.cart")
    static let sync = Notification.Name("fid.sync")
    static let orphan = Notification.Name("fid.orphan")
    static let sender = Notification.Name("fid.sender")
    static let target = Notification.Name("fid.target")
    static let leak = Notification.Name("fid.leak")
    static let duplicate = Notification.Name("fid.dup")
    static let grow = Notification.Name("fid.grow")
    static let pulse = Notification.Name("fid.pulse")
    static let sequence = Notification.Name("fid.seq")
    static let comeback = Notification.Name("fid.return")
    static let slow = Notification.Name("fid.slow")
    static let mainOnly = Notification.Name("fid.main")
    static let login = Notification.Name("fid.userDidLogin")
    static let loginTypo = Notification.Name("fid.userDidLogn")
    static let reachability = Notification.Name("kNetworkReachabilityChangedNotification")
    static let reachabilityPosted = Notification.Name("kReachabilityChangedNotification")
}

/// A scripted workload with known ground truth runs through a real center, the inspector's
/// socket and a trace reader into the model; every number must equal the truth, live and after
/// recording and replaying the session.
@Suite(.serialized, .timeLimit(.minutes(10))) struct FidelityTests {
    static var configuration: InspectorConfiguration {
        var configuration = InspectorConfiguration()
        configuration.rules.checkpointInterval = 2_000_000  // 2 ms: the workload's pauses are 10 ms
        configuration.rules.slowHandler = SeverityThresholds(info: nil, warning: nil, error: 200_000_000)
        configuration.rules.slowPost = SeverityThresholds(info: nil, warning: nil, error: 200_000_000)
        return configuration
    }

    /// The leaks the workload plants: (rule, severity, name), and nothing else may be open.
    static let planted: Set<String> = [
        "R1 error fid.orphan",
        "R2 warning fid.seq",
        "R2 info fid.return",
        "R3 error fid.sender",
        "R3 warning fid.target",
        "R4 warning fid.leak",
        "R5 error fid.dup",
        "R6 warning fid.grow",
        "R7 error fid.slow",
        "R8 error fid.main",
        "R9 warning fid.userDidLogn",
        "R9 warning kReachabilityChangedNotification",
        "R10 warning kNetworkReachabilityChangedNotification",
    ]

    @Test("center → socket → reader → model equals the ground truth, and so does the replayed recording")
    func fidelity() throws {
        let temporary = TemporaryDirectory()
        let truth = CenterTruth()
        let center = NotifyCenter(label: "fidelity")
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        reader.recorder = try TraceRecorder(path: temporary.recordingPath)
        let background = BackgroundReader(reader)
        try #require(eventually { inspector.viewerCount >= 1 }, "the viewer never attached")

        var keep: [AnyObject] = []
        let liveAtEnd = try runWorkload(center: center, truth: truth, keep: &keep)
        inspector.stop()
        let (events, end) = background.finish()
        #expect(end == .producerStopped("inspector-stopped"))
        withExtendedLifetime(keep) {}

        let live = InspectorState.fold(events, configuration: Self.configuration)
        try check(live, against: truth, liveRegistrations: liveAtEnd)

        let replayReader = try TraceReader.open(file: temporary.recordingPath)
        var replayed: [TraceEvent] = []
        while case .event(let event) = replayReader.next() { replayed.append(event) }
        #expect(replayed == events)
        let replay = InspectorState.fold(replayed, configuration: Self.configuration)
        try check(replay, against: truth, liveRegistrations: liveAtEnd)
        #expect(replay.names == live.names)
        #expect(replay.threads == live.threads)
        #expect(replay.registrations == live.registrations)
        #expect(replay.findings == live.findings)
        #expect(replay.overview == live.overview)
    }

    /// Runs the scripted workload; returns the live registration count at its end.
    private func runWorkload(center: NotifyCenter, truth: CenterTruth, keep: inout [AnyObject]) throws -> Int {
        let queue = DispatchQueue(label: "fidelity.sync")
        // Baseline: a block, an owner-bound handler and an async handler, all posted.
        let service = Screen(truth)
        keep.append(service)
        keep.append(center.addObserver(forName: .cart, object: nil, queue: nil) { truth.delivered($0.name) })
        keep.append(center.observe(.cart, owner: service) { owner, note in owner.truth.delivered(note.name) })
        keep.append(
            center.addObserver(forName: .sync, object: nil, deliverOn: .dispatchQueue(queue)) {
                truth.delivered($0.name)
            })
        for _ in 0..<5 { truth.post(.cart, on: center) }
        for _ in 0..<4 { truth.post(.sync, on: center) }
        queue.sync {}

        // R1: a block whose token is discarded, then delivers.
        _ = center.addObserver(forName: .orphan, object: nil, queue: nil) { truth.delivered($0.name) }
        truth.post(.orphan, on: center)
        truth.post(.orphan, on: center)

        // R3 (sender): a filter object dies and a new object takes its address; another observer
        // hears the post (the dead registration is purged before it counts as a match).
        keep.append(center.addObserver(forName: .sender, object: nil, queue: nil) { truth.delivered($0.name) })
        var filter: Screen? = Screen(truth)
        let deadID = ObjectIdentifier(filter!)
        keep.append(center.addObserver(forName: .sender, object: filter, queue: nil) { truth.delivered($0.name) })
        let (fresh, reused) = allocateScreens(untilReusing: deadID, truth: truth, afterReleasing: { filter = nil })
        try #require(reused, "no new object reused the dead filter's address")
        truth.post(.sender, on: center, object: fresh.last)
        keep.append(fresh as AnyObject)

        // R3 (observer): a target dies without removing itself.
        var target: Screen? = Screen(truth)
        center.addObserver(target!, action: Screen.receive, name: .target, object: nil)
        target = nil
        truth.post(.target, on: center)

        // R4: an owner-bound handler that captures its owner.
        let leaky = Screen(truth)
        keep.append(leaky)
        keep.append(center.observe(.leak, owner: leaky) { _, note in leaky.truth.delivered(note.name) })
        truth.post(.leak, on: center)

        // R5: one owner registers three times at one callsite; one post runs it three times.
        let duplicated = Screen(truth)
        keep.append(duplicated)
        for _ in 0..<3 { center.addObserver(duplicated, action: Screen.receive, name: .duplicate, object: nil) }
        truth.post(.duplicate, on: center)

        // R2(a): a sequence whose iterator is not kept.
        do {
            let iterator = center.notifications(named: .sequence).makeAsyncIterator()
            withExtendedLifetime(iterator) {}
        }

        // R2(b): an owner stops observing, misses two posts, and comes back.
        let returning = Screen(truth)
        keep.append(returning)
        keep.append(center.addObserver(forName: .comeback, object: nil, queue: nil) { truth.delivered($0.name) })
        let first = center.observe(.comeback, owner: returning) { owner, note in owner.truth.delivered(note.name) }
        truth.post(.comeback, on: center)
        first.cancel()
        truth.post(.comeback, on: center)
        truth.post(.comeback, on: center)
        keep.append(center.observe(.comeback, owner: returning) { owner, note in owner.truth.delivered(note.name) })
        truth.post(.comeback, on: center)

        // R9 and R10: a typo'd post, and an observer of a name only ever posted under another spelling.
        keep.append(center.addObserver(forName: .login, object: nil, queue: nil) { truth.delivered($0.name) })
        truth.post(.login, on: center)
        truth.post(.loginTypo, on: center)
        keep.append(center.addObserver(forName: .reachability, object: nil, queue: nil) { truth.delivered($0.name) })
        truth.post(.reachabilityPosted, on: center)

        // R6: a screen that leaks one registration per open, with a checkpoint after each open.
        keep.append(center.addObserver(forName: .pulse, object: nil, queue: nil) { truth.delivered($0.name) })
        for open in 0..<4 {
            let screen = Screen(truth)
            keep.append(screen)
            keep.append(center.observe(.grow, owner: screen) { owner, note in owner.truth.delivered(note.name) })
            if open == 0 { truth.post(.grow, on: center) }
            usleep(10_000)
            truth.post(.pulse, on: center)
        }

        // R8: a main-thread-only handler runs on a worker thread.
        keep.append(
            center.addObserver(forName: .mainOnly, object: nil, deliverOn: .posting, mainThreadOnly: true) {
                truth.delivered($0.name)
            })
        let posted = DispatchSemaphore(value: 0)
        let worker = Thread {
            truth.post(.mainOnly, on: center)
            posted.signal()
        }
        worker.name = "fidelity-worker"
        worker.start()
        posted.wait()

        // R7: one slow handler, last, so its pause does not disturb the checkpoints above.
        keep.append(
            center.addObserver(forName: .slow, object: nil, queue: nil) { note in
                usleep(250_000)
                truth.delivered(note.name)
            })
        truth.post(.slow, on: center)
        queue.sync {}
        return center.registrationCount
    }

    private func check(_ state: InspectorState, against truth: CenterTruth, liveRegistrations: Int) throws {
        let expected = truth.snapshot
        #expect(state.eventsLost == 0)
        #expect(state.detailLoss.unknownRegistrationEvents == 0)
        #expect(state.totals.posts == expected.postsByName.values.reduce(0, +))
        #expect(state.totals.deliveries == expected.deliveriesByName.values.reduce(0, +))
        #expect(state.liveRegistrations == liveRegistrations)
        for (name, posts) in expected.postsByName {
            #expect(state.name(name)?.posts == posts, "posts of \(name)")
        }
        for row in state.names where !row.isWildcard {
            #expect(row.deliveries == expected.deliveriesByName[row.name] ?? 0, "deliveries of \(row.name)")
        }
        for (thread, deliveries) in expected.deliveriesByThread {
            #expect(state.thread(thread)?.deliveries == deliveries, "deliveries on thread \(thread)")
        }
        for (thread, posts) in expected.postsByThread {
            #expect(state.thread(thread)?.posts == posts, "posts on thread \(thread)")
        }
        #expect(state.threads.reduce(0) { $0 + $1.deliveries } == state.totals.deliveries)
        let open = Set(
            state.findings.filter(\.isOpen).map {
                "\($0.rule.code) \($0.severity) \($0.evidence.name ?? "?")"
            })
        #expect(
            open == Self.planted,
            "unexpected: \(open.subtracting(Self.planted)); missing: \(Self.planted.subtracting(open))")
        let duplicate = try #require(state.findings.first { $0.rule == .duplicateRegistration })
        #expect(duplicate.evidence.count == 3 && duplicate.evidence.fanOut == 3)
        let comeback = try #require(state.findings.first { $0.rule == .prematureRemoval && $0.severity == .info })
        #expect(comeback.evidence.count == 2)
        let growth = try #require(state.findings.first { $0.rule == .registrationGrowth })
        #expect(growth.evidence.series == [1, 2, 3, 4])
        let orphan = try #require(state.findings.first { $0.rule == .orphanedRegistration })
        #expect(orphan.evidence.deliveriesAfter == 2)
    }
}
