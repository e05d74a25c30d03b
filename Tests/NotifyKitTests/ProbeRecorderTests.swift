import Dispatch
import Foundation
@testable import NotifyKit
import NotifySystem
import NotifyTestSupport
import Synchronization
import Testing

private let tick = Notification.Name("tests.recorder.tick")

/// A probe without a recorder: takes every event as a `ProbeEvent`, synchronously.
private final class ReceivingProbe: NotifyProbe, @unchecked Sendable {
    let events = Recorder<ProbeEvent>()
    func receive(_ event: ProbeEvent) { events.append(event) }
}

private final class Sender {}

/// The per-thread rings a probed post writes into, and how a recorder drains them.
@Suite struct ProbeRecorderTests {
    @Test("a full ring counts every event it drops, and the events it kept are the first ones")
    func fullRingCountsDrops() {
        let center = NotifyCenter()
        let recorder = ProbeRecorder(capacityPerThread: 16)
        let attachment = center.attach(recorder)
        defer { attachment.detach() }
        // Each post carries its own object, so the kept ones tell which posts they were (post ids,
        // unique in the process, need not be consecutive for one thread).
        let senders = (0..<100).map { _ in Sender() }
        for sender in senders { center.post(name: tick, object: sender) }
        var events: [ProbeEvent] = []
        let dropped = recorder.drain(into: &events)
        let posts = events.compactMap { if case .posted(let post) = $0.kind { post } else { nil } }
        #expect(dropped > 0)
        #expect(UInt64(posts.count) + dropped == 100)
        #expect(recorder.droppedTotal == dropped)
        let firstAddresses = senders.prefix(posts.count).map {
            UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque())
        }
        #expect(posts.map { $0.object?.address } == firstAddresses)
        #expect(posts.map(\.postID) == posts.map(\.postID).sorted())
        // Drained, the ring has room again and counts nothing twice.
        center.post(name: tick)
        events.removeAll()
        #expect(recorder.drain(into: &events) == 0)
        #expect(events.count == 1)
    }

    @Test("names that take one another's slots in a thread's ring are each reported with their own post")
    func reusedNameSlotsStayUnambiguous() {
        let center = NotifyCenter()
        let probe = InMemoryProbe()
        let attachment = center.attach(probe)
        defer { attachment.detach() }
        // Four times the ring's name slots, in turn and twice over: slots are taken and retaken.
        let names = (0..<(4 * ProbeRecordRing.nameSlots)).map { Notification.Name("tests.recorder.name-\($0)") }
        var tokens: [NotifyToken] = []
        for name in names.prefix(8) {
            tokens.append(center.addObserver(forName: name, object: nil, queue: nil) { _ in })
        }
        defer { tokens.forEach { $0.cancel() } }
        probe.reset()
        for name in names + names { center.post(name: name) }
        let events = probe.events
        let posted = events.compactMap { if case .posted(let post) = $0.kind { post.name } else { nil } }
        let delivered = events.compactMap { if case .delivered(let delivery) = $0.kind { delivery.name } else { nil } }
        #expect(posted == (names + names).map(\.rawValue))
        #expect(delivered == (names.prefix(8) + names.prefix(8)).map(\.rawValue))
        #expect(probe.droppedCount == 0)
    }

    @Test("a drained record's name serial stands for its name alone, also when its slot is retaken")
    func nameSerialsFollowSlots() {
        let center = NotifyCenter()
        let recorder = ProbeRecorder()
        let attachment = center.attach(recorder)
        defer { attachment.detach() }
        let names = (0..<(2 * ProbeRecordRing.nameSlots)).map { Notification.Name("tests.recorder.serial-\($0)") }
        for name in names + names { center.post(name: name) }
        var visitor = SerialCollector()
        recorder.drain(to: &visitor)
        #expect(visitor.pairs.map(\.name) == (names + names).map(\.rawValue))
        var nameOfSerial: [UInt64: String] = [:]
        for (serial, name) in visitor.pairs {
            #expect(serial != 0)
            #expect(nameOfSerial[serial, default: name] == name)
            nameOfSerial[serial] = name
        }
        // Twice as many names as slots: slots were retaken, so names came back under new serials.
        #expect(Set(nameOfSerial.values).count == names.count)
        #expect(nameOfSerial.count > names.count)
    }

    @Test("records of threads posting at once drain in the order of their times, each thread's in its own order")
    func mergeOrdersThreadsByTime() {
        let center = NotifyCenter()
        let recorder = ProbeRecorder()
        let attachment = center.attach(recorder)
        defer { attachment.detach() }
        let threads = 3
        let postsEach = 3_000
        let started = Atomic<Int>(0)
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            Thread {
                // Together: each waits until every thread is running.
                started.add(1, ordering: .relaxed)
                while started.load(ordering: .relaxed) < threads {}
                for _ in 0..<postsEach { center.post(name: tick) }
                done.leave()
            }.start()
        }
        done.wait()
        var events: [ProbeEvent] = []
        recorder.drain(into: &events)
        #expect(events.count == threads * postsEach)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
        var lastPost: [UInt64: UInt64] = [:]
        for event in events {
            guard case .posted(let post) = event.kind else { continue }
            #expect(post.postID > lastPost[event.thread, default: 0])
            lastPost[event.thread] = post.postID
        }
        #expect(lastPost.count == threads)
    }

    @Test("a posting thread's stripe retains a probe set of its own, with the center's probes")
    func stripesKeepTheirOwnProbeSet() {
        let center = NotifyCenter()
        let recorder = ProbeRecorder()
        let attachment = center.attach(recorder)
        defer { attachment.detach() }
        let token = center.addObserver(forName: tick, object: nil, queue: nil) { _ in }
        defer { token.cancel() }
        for _ in 0..<3 { center.post(name: tick) }
        let kept = center.postCache.withStripe(forThread: NotifyThread.current.id) { stripe in
            stripe.lock.lock()
            defer { stripe.lock.unlock() }
            return stripe.probes
        }
        #expect(kept != nil)
        #expect(kept !== center.probes)
        #expect(kept?.entries.map(\.id) == center.probes?.entries.map(\.id))
    }

    @Test("a delivery handed to another thread is drained after its post, with the posting thread")
    func handedOffDeliveryFollowsItsPost() {
        let center = NotifyCenter()
        let queue = DispatchQueue(label: "tests.recorder.queue")
        let done = DispatchSemaphore(value: 0)
        let token = center.addObserver(forName: tick, object: nil, deliverOn: .dispatchQueue(queue)) { _ in
            done.signal()
        }
        defer { token.cancel() }
        withProbe(on: center) { probe in
            let poster = NotifyThread.current.id
            for _ in 0..<50 {
                center.post(name: tick)
                #expect(wait(done))
            }
            let events = probe.events
            var postedAt: [UInt64: Int] = [:]
            for (index, event) in events.enumerated() {
                switch event.kind {
                case .posted(let post): postedAt[post.postID] = index
                case .delivered(let delivery):
                    #expect(postedAt[delivery.postID] != nil, "delivery of post \(delivery.postID) before its post")
                    #expect(delivery.postingThread == poster)
                    #expect(event.thread != poster)
                    #expect(delivery.name == tick.rawValue)
                default: break
                }
            }
            #expect(postedAt.count == 50)
        }
    }

    @Test("a thread that exits leaves its ring to be drained, then the ring is let go")
    func exitedThreadRingIsDrainedThenReleased() {
        let center = NotifyCenter()
        let recorder = ProbeRecorder()
        let attachment = center.attach(recorder)
        defer { attachment.detach() }
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            for _ in 0..<10 { center.post(name: tick) }
            finished.signal()
        }
        thread.start()
        #expect(wait(finished))
        var events: [ProbeEvent] = []
        #expect(
            eventually {
                recorder.drain(into: &events)
                return events.count == 10 && recorder.ringCount == 0
            })
        #expect(events.allSatisfy { $0.thread == events[0].thread })
    }

    @Test("a ring drained as it fills writes its records again and again into the same few chunks")
    func drainedRingReusesItsChunks() {
        let ring = ProbeRecordRing(thread: 1, recorderID: 1, capacity: 4096)
        var written: UInt64 = 0
        var read: UInt64 = 0
        // Lagging reads: the reader leaves part of a chunk behind each time, so chunks are handed
        // back out of step with the writer's.
        for round in 0..<2_000 {
            for _ in 0..<(100 + round % 7) {
                #expect(
                    ring.append(
                        .messageEnqueued(
                            at: written, postID: written, registration: 0, pending: 0, droppedOldest: false)))
                written += 1
            }
            let end = ring.published.load(ordering: .acquiring) - UInt64(round % 3)
            while read < end {
                #expect(ring.record(at: read).postID == read)
                read += 1
            }
            ring.consume(upTo: read)
        }
        #expect(written > 200_000)
        #expect(ring.chunksUsed <= 2)
    }

    @Test("a ring the reader leaves full holds exactly its capacity, across chunks, in order")
    func fullRingSpansChunks() {
        let ring = ProbeRecordRing(thread: 1, recorderID: 1, capacity: 1024)
        var written: UInt64 = 0
        for pass in 0..<5 {
            // Read half a chunk less than was written: the chunk the reader is in stays held.
            var kept: UInt64 = 0
            while ring.append(
                .messageEnqueued(at: 0, postID: written, registration: 0, pending: 0, droppedOldest: false))
            {
                written += 1
                kept += 1
            }
            #expect(ring.published.load(ordering: .acquiring) - ring.consumed.load(ordering: .acquiring) == 1024)
            let start = ring.consumed.load(ordering: .acquiring)
            let end = ring.published.load(ordering: .acquiring) - UInt64(pass == 0 ? 0 : 128)
            for index in start..<end { #expect(ring.record(at: index).postID == index) }
            ring.consume(upTo: end)
            #expect(kept > 0)
        }
    }

    @Test("threads posting at once give every post its own id, increasing on each thread")
    func concurrentPostIDsAreUnique() {
        let center = NotifyCenter()
        let token = center.addObserver(forName: tick, object: nil, queue: nil) { _ in }
        defer { token.cancel() }
        let probe = InMemoryProbe()
        let attachment = center.attach(probe)
        defer { attachment.detach() }
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                for _ in 0..<300 { center.post(name: tick) }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        var byThread: [UInt64: [UInt64]] = [:]
        var delivered: Set<UInt64> = []
        for event in probe.events {
            switch event.kind {
            case .posted(let post): byThread[event.thread, default: []].append(post.postID)
            case .delivered(let delivery): delivered.insert(delivery.postID)
            default: break
            }
        }
        let all = byThread.values.flatMap { $0 }
        #expect(all.count == 1_200)
        #expect(Set(all).count == 1_200)
        #expect(delivered == Set(all))
        for ids in byThread.values { #expect(ids == ids.sorted()) }
    }

    @Test("threads started one after another each record their posts under their own thread id")
    func successiveThreadsKeepTheirOwnContext() {
        let center = NotifyCenter()
        let probe = InMemoryProbe()
        let attachment = center.attach(probe)
        defer { attachment.detach() }
        let ids = Recorder<UInt64>()
        for _ in 0..<8 {
            let finished = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                ids.append(NotifyThread.current.id)
                for _ in 0..<3 { center.post(name: tick) }
                finished.signal()
            }
            #expect(wait(finished))
        }
        let threads = probe.events.compactMap { if case .posted = $0.kind { $0.thread } else { nil } }
        #expect(Set(ids.all).count == 8)
        #expect(threads == ids.all.flatMap { [$0, $0, $0] })
    }

    @Test("a probe without a recorder still receives posts and deliveries as events, beside a recorder")
    func receivingProbeBesideARecorder() {
        let center = NotifyCenter()
        let token = center.addObserver(forName: tick, object: nil, queue: nil) { _ in }
        defer { token.cancel() }
        let receiving = ReceivingProbe()
        let recording = InMemoryProbe()
        let first = center.attach(receiving)
        let second = center.attach(recording)
        defer {
            first.detach()
            second.detach()
        }
        center.post(name: tick)
        let received = receiving.events.all.filter {
            if case .registered = $0.kind { false } else { true }
        }
        let recorded = recording.events.filter {
            if case .registered = $0.kind { false } else { true }
        }
        #expect(received.count == 2)
        #expect(recorded.count == 2)
        for (lhs, rhs) in zip(received, recorded) {
            #expect(lhs.timestamp == rhs.timestamp)
            #expect(lhs.thread == rhs.thread)
            #expect("\(lhs.kind)" == "\(rhs.kind)")
        }
    }

    @Test("rings drain merged by time, each ring in its own order, equal times from the ring registered first")
    func drainMergesRingsByTimeThenRingOrder() {
        let recorder = ProbeRecorder(capacityPerThread: 64)
        // Times per ring; a record's post id names its ring (hundreds) and its place in the ring.
        let times: [[UInt64]] = [[1, 2, 2, 5, 9, 9], [2, 3, 4, 9], [0, 9, 10], [], [6, 6, 6, 7], [20], [18, 20]]
        for (ringIndex, ringTimes) in times.enumerated() {
            let ring = ProbeRecordRing(thread: UInt64(ringIndex + 1), recorderID: recorder.id, capacity: 64)
            recorder.register(ring)
            for (place, time) in ringTimes.enumerated() {
                #expect(
                    ring.append(
                        .messageEnqueued(
                            at: time, postID: UInt64(100 * ringIndex + place), registration: 0, pending: 0,
                            droppedOldest: false)))
            }
        }
        var events: [ProbeEvent] = []
        #expect(recorder.drain(into: &events) == 0)
        let expected = times.enumerated()
            .flatMap { ringIndex, ringTimes in
                ringTimes.enumerated().map { place, time in (time, ringIndex, UInt64(100 * ringIndex + place)) }
            }
            .sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        #expect(events.map(\.timestamp) == expected.map(\.0))
        #expect(events.map(\.thread) == expected.map { UInt64($0.1 + 1) })
        let postIDs = events.map { event -> UInt64 in
            if case .messageEnqueued(let enqueue) = event.kind { enqueue.postID } else { .max }
        }
        #expect(postIDs == expected.map(\.2))
    }
}

/// The name serial and name of every drained post.
private struct SerialCollector: ProbeRecordVisitor {
    var pairs: [(serial: UInt64, name: String)] = []
    mutating func visit(_ record: ProbeDrainedRecord) { pairs.append((record.nameSerial, record.name)) }
    mutating func visit(_ event: ProbeEvent) {}
}
