import Foundation
import NotifySystem
import NotifyTestSupport
import NotifyWire
import NotifyKit
@testable import NotifyTraceApp
import NotifyTraceViewer
import Testing

private let ping = Notification.Name("trace.ping")
private let pong = Notification.Name("trace.pong")

@Suite("Inspector over a Unix socket", .serialized, .timeLimit(.minutes(10)))
struct InspectorTests {
    @Test("the socket is private, named after the pid, and removed when the inspector stops")
    func socketLifecycle() throws {
        let temporary = TemporaryDirectory()
        let inspector = try NotifyInspector.start(
            center: NotifyCenter(), others: .none, directory: temporary.socketDirectory)
        #expect(inspector.socketPath == temporary.socketDirectory.socketPath(for: getpid()))
        var info = stat()
        #expect(stat(inspector.socketPath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(stat(temporary.socketDirectory.path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        #expect(temporary.socketDirectory.inspectableProcesses().map(\.pid) == [getpid()])
        inspector.stop()
        #expect(stat(inspector.socketPath, &info) != 0)
    }

    @Test("a viewer receives the header, then live posts and deliveries in order")
    func liveEvents() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter(label: "live")
        let token = center.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        let first = reader.read(until: { $0.registration != nil })
        #expect(reader.header?.center == "live")
        #expect(reader.header?.producer == "NotifyKit \(PackageVersion.current)")
        #expect(first.last?.registration?.preexisting == true)
        for _ in 0..<3 { center.post(name: ping) }
        let rest = reader.read(untilThe: 3) { event in
            if case .delivered = event { return true }
            return false
        }
        #expect(rest.compactMap(\.postName) == ["trace.ping", "trace.ping", "trace.ping"])
        let postIDs = rest.compactMap { event -> UInt64? in
            if case .posted(let post) = event { return post.postID }
            return nil
        }
        #expect(postIDs == postIDs.sorted() && Set(postIDs).count == 3)
        let sequence = (first + rest).compactMap(\.seq)
        #expect(sequence == sequence.sorted())
        #expect(Set(sequence).count == sequence.count)
        token.cancel()
    }

    @Test("a viewer attached late first sees every live registration and thread")
    func lateAttachSeesSnapshot() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let early = try TraceReader.connect(socketPath: inspector.socketPath)
        _ = early.read(until: { _ in false }, seconds: 0.1)
        let tokens = (0..<5).map { i in
            center.addObserver(forName: Notification.Name("late.\(i)"), object: nil, queue: nil) { _ in }
        }
        tokens[1].cancel()
        _ = early.read(until: { event in
            if case .removed = event { return true }
            return false
        })
        let late = try TraceReader.connect(socketPath: inspector.socketPath)
        let snapshot = late.read(until: { $0.registration?.name == "late.4" })
        let names = snapshot.compactMap(\.registration).filter(\.preexisting).map(\.name)
        #expect(names == ["late.0", "late.2", "late.3", "late.4"])
        #expect(snapshot.contains { if case .thread = $0 { return true } else { return false } })
        withExtendedLifetime(tokens) {}
    }

    @Test("two viewers receive the same posts")
    func twoViewers() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let a = try TraceReader.connect(socketPath: inspector.socketPath)
        let b = try TraceReader.connect(socketPath: inspector.socketPath)
        try #require(eventually { inspector.viewerCount >= 2 }, "the viewers never attached")
        for _ in 0..<10 { center.post(name: pong) }
        let isPost: (TraceEvent) -> Bool = { event in
            if case .posted = event { return true }
            return false
        }
        #expect(a.read(untilThe: 10, isPost).compactMap(\.postName).count == 10)
        #expect(b.read(untilThe: 10, isPost).compactMap(\.postName).count == 10)
    }

    @Test("a viewer that disconnects mid-stream does not disturb the app or other viewers")
    func viewerKilledMidStream() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        var doomed: TraceReader? = try TraceReader.connect(socketPath: inspector.socketPath)
        let survivor = try TraceReader.connect(socketPath: inspector.socketPath)
        try #require(eventually { inspector.viewerCount >= 2 }, "the viewers never attached")
        for _ in 0..<100 { center.post(name: ping) }
        doomed = nil
        for _ in 0..<100 { center.post(name: ping) }
        let events = survivor.read(untilThe: 200) { event in
            if case .posted = event { return true }
            return false
        }
        #expect(events.compactMap(\.postName).count == 200)
        #expect(doomed == nil)
        #expect(eventually { inspector.viewerCount == 1 }, "the closed viewer is still counted")
    }

    @Test("a viewer that never reads gets a gap with the exact count of lines it missed")
    func slowViewerGetsExactGap() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let inspector = try NotifyInspector.start(
            center: center, others: .none, directory: temporary.socketDirectory,
            viewerBufferBytes: 64 * 1024)
        defer { inspector.stop() }
        let slow = try TraceReader.connect(socketPath: inspector.socketPath)
        try #require(eventually { inspector.viewerCount >= 1 }, "the viewer never attached")
        let posts = 20_000
        for _ in 0..<posts { center.post(name: ping) }
        // The viewer that is not reading has missed events: it is behind.
        #expect(eventually { inspector.viewerHasMissed })
        // Everything the viewer did not get is accounted for by gaps, exactly: its own
        // (viewer-behind), and any the posting thread's ring dropped before the exporter drained
        // it (buffer-full, which every viewer gets).
        var received = 0
        var missed: UInt64 = 0
        var droppedInRing: UInt64 = 0
        let deadline = Date(timeIntervalSinceNow: 20)
        reading: while UInt64(received) + missed + droppedInRing < UInt64(posts) && Date() < deadline {
            switch slow.next(timeoutMilliseconds: 20) {
            case .event(let event):
                if event.postName != nil { received += 1 }
                if let gap = event.gap {
                    if gap.reason == .viewerBehind { missed += gap.count }
                    if gap.reason == .bufferFull { droppedInRing += gap.count }
                }
            case .idle: continue
            case .ended: break reading
            }
        }
        #expect(missed > 0)
        #expect(UInt64(received) + missed + droppedInRing == UInt64(posts))
    }

    @Test("when the inspector stops, viewers see a clean end of stream")
    func cleanEnd() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        try #require(eventually { inspector.viewerCount >= 1 }, "the viewer never attached")
        center.post(name: ping)
        inspector.stop()
        let (events, end) = reader.readToEnd()
        #expect(events.compactMap(\.postName) == ["trace.ping"])
        #expect(end == .producerStopped("inspector-stopped"))
    }
}

@Suite("Inspector snapshots", .serialized, .timeLimit(.minutes(10)))
struct InspectorSnapshotTests {
    @Test("a late viewer learns which live registrations lost their token, and sequence numbers only grow")
    func lateViewerSeesDroppedTokens() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let early = try TraceReader.connect(socketPath: inspector.socketPath)
        try #require(eventually { inspector.viewerCount >= 1 }, "the viewer never attached")
        var kept: NotifyToken? = center.addObserver(forName: Notification.Name("kept"), object: nil, queue: nil) { _ in
        }
        _ = center.addObserver(forName: Notification.Name("orphan"), object: nil, queue: nil) { _ in }
        _ = early.read(until: { event in
            if case .tokenDropped = event { return true }
            return false
        })
        let late = try TraceReader.connect(socketPath: inspector.socketPath)
        var events: [TraceEvent] = []
        var orphanID: UInt64?
        events = late.read(until: { event in
            if let registration = event.registration, registration.name == "orphan" { orphanID = registration.id }
            if case .tokenDropped(let drop) = event { return drop.registration == orphanID }
            return false
        })
        #expect(orphanID != nil)
        let sequence = events.compactMap(\.seq)
        #expect(sequence == sequence.sorted())
        #expect(Set(sequence).count == sequence.count)
        kept = nil
        _ = kept
    }

    @Test("objects at a recycled address get a new trace object id")
    func recycledAddressIsANewObject() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        try #require(eventually { inspector.viewerCount >= 1 }, "the viewer never attached")
        final class Owner {}
        var observerIDs: [UInt64] = []
        var addresses: Set<UInt64> = []
        var objects: [UInt64: UInt64] = [:]
        for _ in 0..<20 {
            let owner = Owner()
            let token = center.observe(Notification.Name("recycled"), owner: owner) { _, _ in }
            token.cancel()
        }
        var removals = 0
        let events = reader.read(
            until: { event in
                if case .removed = event { removals += 1 }
                return removals == 20
            }, seconds: 20)
        for event in events {
            if case .object(let object) = event { objects[object.id] = object.address }
            if let registration = event.registration, let observer = registration.observer {
                observerIDs.append(observer)
                addresses.insert(objects[observer] ?? 0)
            }
        }
        #expect(observerIDs.count == 20)
        #expect(Set(observerIDs).count == 20)
        _ = addresses
    }
}
