import Dispatch
import Foundation
import NotifyTestSupport
import NotifyWire
import NotifyKit
@testable import NotifyTraceApp
@testable import NotifyTraceViewer
import Testing

/// The trace names threads as the app knows them, and says so again when a name changes.
@Suite("Thread names in the trace", .serialized, .timeLimit(.minutes(10)))
struct ThreadNamesInTraceTests {
    @Test("a labelled dispatch queue, a named operation queue and a delivery thread each name their deliveries' thread")
    func deliveringThreadsNamed() throws {
        // A trace names a thread as it is called when the exporter drains its events, and a pool
        // worker is renamed for each queue it works for: another test's queue that takes the
        // worker within those few milliseconds renames it first. Such a run is tried again; a
        // thread NotifyKit did not name for its queue is misnamed every time.
        var outcome = try Self.nameDeliveringThreads()
        for _ in 1..<3 where !outcome.renamedElsewhere.isEmpty {
            outcome = try Self.nameDeliveringThreads()
        }
        #expect(outcome.misnamed == [], "renamed by other queues since: \(outcome.renamedElsewhere)")
    }

    /// Delivers one post on each kind of named target and reads the trace: the deliveries whose
    /// thread the trace did not call by the target's name, and those of them whose thread has been
    /// renamed for another queue since.
    private static func nameDeliveringThreads() throws -> (misnamed: [String], renamedElsewhere: [String]) {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        try #require(eventually { inspector.viewerCount >= 1 }, "the viewer never attached")

        // A pool worker another test's queue used first keeps that queue's name (a thread is named
        // for the queue it first worked for): only threads new to NotifyKit must carry these labels.
        let namedBefore = Dictionary(uniqueKeysWithValues: NotifyThread.all.map { ($0.id, $0.name) })
        let name = Notification.Name("trace.naming")
        let queue = DispatchQueue(label: "tests.trace.dispatch-queue-label")
        let operations = OperationQueue()
        operations.name = "tests.trace.operation-queue"
        let thread = DeliveryThread(name: "tests.trace.delivery-thread")
        let tokens = [
            center.addObserver(forName: name, object: nil, deliverOn: .dispatchQueue(queue)) { _ in },
            center.addObserver(forName: name, object: nil, queue: operations) { _ in },
            center.addObserver(forName: name, object: nil, deliverOn: .thread(thread)) { _ in },
        ]
        defer { tokens.forEach { $0.cancel() } }
        center.post(name: name)

        var deliveries = 0
        let events = reader.read(until: { event in
            if case .delivered(let delivery) = event, delivery.name == "trace.naming" { deliveries += 1 }
            return deliveries == 3
        })
        try #require(deliveries == 3)
        var names: [UInt64: Set<String>] = [:]
        var deliveredBy: [TraceTargetKind: UInt64] = [:]
        for event in events {
            if case .thread(let thread) = event { names[thread.id, default: []].insert(thread.name) }
            if case .delivered(let delivery) = event, delivery.name == "trace.naming" {
                deliveredBy[delivery.target] = delivery.thread
            }
        }
        let expected: [(TraceTargetKind, String)] = [
            (.dispatchQueue, "tests.trace.dispatch-queue-label"),
            (.operationQueue, "tests.trace.operation-queue"),
            (.thread, "tests.trace.delivery-thread"),
        ]
        var misnamed: [String] = []
        var renamedElsewhere: [String] = []
        for (target, label) in expected {
            let id = try #require(deliveredBy[target], "no \(target) delivery")
            let expectedName = namedBefore[id] ?? label
            guard names[id]?.contains(expectedName) != true else { continue }
            let line = "\(target): thread #\(id) was called \(names[id] ?? [])"
            misnamed.append(line)
            if let now = NotifyThread.lookup(id)?.name, now != expectedName {
                renamedElsewhere.append(line + ", now \(now)")
            }
        }
        return (misnamed, renamedElsewhere)
    }

    @Test("a thread renamed after its introduction is introduced again, same id, before its next event")
    func renamedThreadIntroducedAgain() throws {
        var translator = ProbeEventConverter()
        let worker = SteppedWorker()
        let id = try #require(worker.step { NotifyThread.current.id })
        let site = ProbeEvent.Callsite(file: #fileID, line: #line)
        var lines: [TraceEvent] = []
        translator.translate(
            ProbeEvent(timestamp: 10, thread: id, kind: .checkpoint(label: "a", callsite: site)),
            into: &lines)
        #expect(lines.contains { if case .thread(let thread) = $0 { thread.id == id } else { false } })

        _ = worker.step {
            NotifyThread.nameCurrentThread("tests.trace.renamed-worker"); return 0
        }
        var more: [TraceEvent] = []
        translator.translate(
            ProbeEvent(timestamp: 20, thread: id, kind: .checkpoint(label: "b", callsite: site)),
            into: &more)
        let again = more.firstIndex { if case .thread(let thread) = $0 { thread.id == id } else { false } }
        let checkpoint = more.firstIndex { if case .checkpoint = $0 { true } else { false } }
        let index = try #require(again, "the renamed thread was not introduced again: \(more)")
        #expect(index < (checkpoint ?? 0))
        guard case .thread(let renamed) = more[index] else { return }
        #expect(renamed.name == "tests.trace.renamed-worker")
        #expect(renamed.timestamp == 20)
        #expect(
            translator.snapshot().contains {
                if case .thread(let thread) = $0 {
                    thread.id == id && thread.name == "tests.trace.renamed-worker"
                } else {
                    false
                }
            })
        worker.stop()
    }
}

/// A thread that runs one closure per ``step(_:)`` and waits between steps, so a test can act on
/// a thread it controls at chosen moments.
final class SteppedWorker: @unchecked Sendable {  // `work` and `result` are handed over by semaphores
    private let go = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var work: (() -> UInt64)?
    private var result: UInt64 = 0
    private var stopped = false

    init() {
        let thread = Thread { [self] in
            while true {
                go.wait()
                if stopped { return }
                result = work?() ?? 0
                done.signal()
            }
        }
        thread.start()
    }

    /// Runs `body` on the worker and returns its result; nil if it did not finish within 5 s.
    func step(_ body: @escaping () -> UInt64) -> UInt64? {
        work = body
        go.signal()
        return done.wait(timeout: .now() + 5) == .success ? result : nil
    }

    func stop() {
        stopped = true
        go.signal()
    }
}
