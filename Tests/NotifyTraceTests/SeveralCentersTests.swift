import Foundation
import NotifySystem
import NotifyTestSupport
import NotifyWire
@testable import NotifyKit
@testable import NotifyTraceApp
import NotifyTraceViewer
import Testing

private let ping = Notification.Name("centers.ping")
private let pong = Notification.Name("centers.pong")

/// One inspector streams several centers: each registration and post says its center, ids stay
/// unique across them, and the events of all come in the order they happened.
@Suite("Several centers in one stream", .serialized, .timeLimit(.minutes(10)))
struct SeveralCentersTests {
    private static func posts(_ events: [TraceEvent]) -> [TracePost] {
        events.compactMap { if case .posted(let post) = $0 { post } else { nil } }
    }

    private static func deliveries(_ events: [TraceEvent]) -> [TraceDelivery] {
        events.compactMap { if case .delivered(let delivery) = $0 { delivery } else { nil } }
    }

    @Test("the header names the centers; registrations and posts say theirs; ids do not collide")
    func twoCentersOneStream() throws {
        let temporary = TemporaryDirectory()
        let app = NotifyCenter(label: "app")
        let sync = NotifyCenter(label: "sync")
        // Each center's first registration has id 1 in it: the stream must tell them apart.
        let early = app.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        let other = sync.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        let inspector = try NotifyInspector.start(
            centers: [app, sync], others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        let snapshot = reader.read(untilThe: 2) { $0.registration != nil }
        #expect(reader.header?.centers == ["app", "sync"])
        #expect(reader.header?.center == "app")
        let preexisting = snapshot.compactMap(\.registration)
        #expect(preexisting.map(\.center) == [0, 1])
        #expect(Set(preexisting.map(\.id)).count == 2)
        let appID = try #require(preexisting.first { $0.center == 0 }?.id)
        let syncID = try #require(preexisting.first { $0.center == 1 }?.id)

        app.post(name: ping)
        sync.post(name: ping)
        let live = reader.read(untilThe: 2) { if case .delivered = $0 { true } else { false } }
        let posts = Self.posts(live)
        #expect(posts.map(\.center) == [0, 1])
        #expect(Set(posts.map(\.postID)).count == 2)
        #expect(Self.deliveries(live).map(\.registration) == [appID, syncID])
        withExtendedLifetime((early, other)) {}
    }

    @Test("a post made on one center inside another center's handler names its parent there")
    func nestedAcrossCenters() throws {
        let temporary = TemporaryDirectory()
        let app = NotifyCenter(label: "app")
        let sync = NotifyCenter(label: "sync")
        let forward = app.addObserver(forName: ping, object: nil, queue: nil) { _ in sync.post(name: pong) }
        let listen = sync.addObserver(forName: pong, object: nil, queue: nil) { _ in }
        let inspector = try NotifyInspector.start(
            centers: [app, sync], others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        _ = reader.read(untilThe: 2) { $0.registration != nil }
        app.post(name: ping)
        let live = reader.read(untilThe: 2) { if case .delivered = $0 { true } else { false } }
        let posts = Self.posts(live)
        try #require(posts.count == 2)
        #expect(posts[0].name == ping.rawValue && posts[0].center == 0)
        #expect(posts[1].name == pong.rawValue && posts[1].center == 1)
        #expect(posts[1].parentPostID == posts[0].postID)
        #expect(posts[1].depth == 2)
        withExtendedLifetime((forward, listen)) {}
    }

    @Test("a viewer attaching late gets every center's live registrations, each with its center")
    func lateViewerSnapshot() throws {
        let temporary = TemporaryDirectory()
        let app = NotifyCenter(label: "app")
        let sync = NotifyCenter(label: "sync")
        let inspector = try NotifyInspector.start(
            centers: [app, sync], others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let first = try TraceReader.connect(socketPath: inspector.socketPath)
        try #require(eventually { inspector.viewerCount == 1 }, "the first viewer never attached")
        let tokens = [
            app.addObserver(forName: ping, object: nil, queue: nil) { _ in },
            sync.addObserver(forName: ping, object: nil, queue: nil) { _ in },
            sync.addObserver(forName: pong, object: nil, queue: nil) { _ in },
        ]
        let seen = first.read(untilThe: 3) { $0.registration != nil }.compactMap(\.registration)
        let late = try TraceReader.connect(socketPath: inspector.socketPath)
        let snapshot = late.read(untilThe: 3) { $0.registration != nil }.compactMap(\.registration)
        #expect(snapshot.allSatisfy { $0.preexisting })
        #expect(snapshot.map(\.center) == [0, 1, 1])
        #expect(snapshot.map(\.id) == seen.map(\.id))
        #expect(Set(snapshot.map(\.id)).count == 3)
        withExtendedLifetime(tokens) {}
    }

    @Test("one center's stream names no centers, as before")
    func oneCenterUnchanged() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter(label: "only")
        let token = center.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        let inspector = try NotifyInspector.start(
            centers: [center], others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        let snapshot = reader.read(until: { $0.registration != nil })
        center.post(name: ping)
        let live = reader.read(untilThe: 1) { if case .delivered = $0 { true } else { false } }
        #expect(reader.header?.centers == nil)
        #expect(snapshot.compactMap(\.registration).map(\.center) == [nil])
        #expect(Self.posts(live).map(\.center) == [nil])
        withExtendedLifetime(token) {}
    }

    @Test("no centers, a center twice, or more than 256 are refused with one line")
    func refusedLists() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        #expect(throws: TraceError.self) {
            try NotifyInspector.start(centers: [], others: .none, directory: temporary.socketDirectory)
        }
        #expect(throws: TraceError.self) {
            try NotifyInspector.start(centers: [center, center], others: .none, directory: temporary.socketDirectory)
        }
        let many = (0...256).map { NotifyCenter(label: "c\($0)") }
        #expect(throws: TraceError.self) {
            try NotifyInspector.start(centers: many, others: .none, directory: temporary.socketDirectory)
        }
        // Nothing was left listening: a valid list starts.
        let started = try NotifyInspector.start(centers: [center], others: .none, directory: temporary.socketDirectory)
        started.stop()
    }

    @Test("registration ids and object serials are renumbered per center only when there are several")
    func renumbering() {
        let one = ProbeEventConverter()
        #expect(one.streamID(7, center: 0) == 7)
        let three = ProbeEventConverter(centerCount: 3)
        #expect((1...3).map { three.streamID($0, center: 0) } == [1, 4, 7])
        #expect((1...3).map { three.streamID($0, center: 2) } == [3, 6, 9])
        #expect(three.streamID(0, center: 1) == 0)
        let all = (1...50).flatMap { id in (0..<3).map { three.streamID(id, center: UInt8($0)) } }
        #expect(Set(all).count == all.count)
        let object = ProbeEvent.ObjectRef(address: 0x1000, type: NotifyCenter.self, serial: 2)
        #expect(three.streamObject(object, center: 1).serial == 5)
        #expect(one.streamObject(object, center: 0).serial == 2)
        #expect(three.streamObject(object.withSerial(0), center: 2).serial == 0)
        #expect(three.streamObject(object, center: 1).address == object.address)
    }

    @Test("a record is no larger for naming its center")
    func recordSize() {
        #expect(MemoryLayout<ProbeRecord>.size == 88)
        #expect(MemoryLayout<ProbeRecord>.stride == 88)
    }
}
