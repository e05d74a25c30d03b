import Dispatch
import Foundation
import NotifyDemo
import NotifyKit
import NotifyTestSupport

/// One deterministic run of the demo with an ``InMemoryProbe`` attached from the start: what the
/// center reported, what the demo counted itself, and the threads involved.
///
/// Shared by every suite: the bug-fact checks read ``events``; the model-based checks (once
/// NotifyModel exists) can fold the same events and compare findings with ``DemoBug/rule``.
struct RecordedDemoRun: Sendable {
    let configuration: DemoConfiguration
    let events: [ProbeEvent]
    let truth: GroundTruth
    /// Every thread seen during the run, by ``NotifyThread/id``, captured before any could exit.
    let threads: [UInt64: NotifyThread]
    let mainLaneThread: NotifyThread

    /// Runs `steps` steps of a fresh app on a new thread (a clean run loop, and a thread that is
    /// not the process's main thread, as in `swift test` generally) and records it.
    static func record(_ configuration: DemoConfiguration, steps: Int) -> RecordedDemoRun {
        onDedicatedThread {
            let center = NotifyCenter(label: "demo-test")
            let probe = InMemoryProbe()
            let attachment = center.attach(probe)
            let simulation = DemoSimulation(configuration: configuration, center: center)
            simulation.run(steps: steps)
            let truth = simulation.groundTruth()
            let events = probe.events
            attachment.detach()
            var threads: [UInt64: NotifyThread] = [:]
            for thread in NotifyThread.all { threads[thread.id] = thread }
            return RecordedDemoRun(
                configuration: configuration, events: events, truth: truth, threads: threads,
                mainLaneThread: simulation.mainLaneThread)
        }
    }

    /// Whether the thread with this id is the process's main thread.
    func isMain(_ id: UInt64) -> Bool {
        if let thread = threads[id] { return thread.isMain }
        return truth.threads.first { $0.id == id }?.isMain ?? false
    }

    /// The events as (kind, name, registration id) lines: what must repeat for a seed.
    var signature: [String] {
        events.map(\.kind.signature)
    }
}

extension ProbeEvent.Kind {
    /// Kind, name and registration id; no timestamps, threads, addresses or post ids.
    var signature: String {
        switch self {
        case .registered(let registration): "registered \(registration.name ?? "*") #\(registration.id)"
        case .posted(let post): "posted \(post.name) matched \(post.matched)"
        case .delivered(let delivery): "delivered \(delivery.name) #\(delivery.registration)"
        case .removed(let registration, let reason, _): "removed #\(registration) \(reason.rawValue)"
        case .objectDead(let registration, _): "objectDead #\(registration)"
        case .queueMerged(let merge): "queueMerged \(merge.count)"
        case .tokenDropped(let registration): "tokenDropped #\(registration)"
        case .removeMissed(let missed): "removeMissed \(missed.name ?? "*")"
        case .queue(let activity): "queue \(activity.action.rawValue) \(activity.name ?? "*") \(activity.count)"
        case .checkpoint(let label, _): "checkpoint \(label)"
        case .messageEnqueued(let enqueue): "messageEnqueued #\(enqueue.registration) \(enqueue.pending)"
        }
    }
}

extension RecordedDemoRun {
    /// Deliveries the machine stalled (see ``MachineStall``), sparing the handler a planted bug
    /// makes slow.
    var stalls: [String] {
        let slow = configuration.bugs.contains(.slowMainHandler) ? DemoBug.slowMainHandler.name.string : nil
        return MachineStall.stalls(
            events.lazy.compactMap { event -> (name: String, duration: UInt64)? in
                guard case .delivered(let delivery) = event.kind else { return nil }
                return (delivery.name, delivery.duration)
            }, sparing: slow)
    }
}
