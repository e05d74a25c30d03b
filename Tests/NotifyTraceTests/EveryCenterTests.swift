import Foundation
import NotifySystem
import NotifyTestSupport
import NotifyWire
@testable import NotifyKit
@testable import NotifyModel
@testable import NotifyTraceApp
import NotifyTraceViewer
import Testing

private let ping = Notification.Name("every-center.ping")

/// An inspector streams every center of the process, made before or after it started, each under
/// its label, unless left out; a center that deallocates ends its registrations. Each test's
/// inspector streams only the centers labelled with its own tag, as other tests' inspectors would
/// otherwise lose them from the history their late viewers get.
extension SeveralCentersTests {
    /// The label of each center index the events name: the header's, then `center` lines'.
    private static func labels(_ events: [TraceEvent], header: TraceHeader?) -> [UInt32: String] {
        var labels: [UInt32: String] = [0: header?.center ?? ""]
        for (index, label) in (header?.centers ?? []).enumerated() { labels[UInt32(index)] = label }
        for event in events {
            if case .center(let center) = event { labels[center.index] = center.label }
        }
        return labels
    }

    private static func postLabels(_ events: [TraceEvent], header: TraceHeader?) -> [String] {
        let labels = labels(events, header: header)
        return events.compactMap { event in
            guard case .posted(let post) = event, post.name == ping.rawValue else { return nil }
            return labels[post.center ?? 0]
        }
    }

    private static func tag() -> String { String(UInt32.random(in: 0...UInt32.max), radix: 36) }

    @Test("private centers made before and after the inspector started stream under their labels")
    func privateCentersStream() throws {
        let temporary = TemporaryDirectory()
        let tag = Self.tag()
        let main = NotifyCenter(label: "\(tag).main")
        let before = NotifyCenter(label: "\(tag).before")
        let early = before.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        let inspector = try NotifyInspector.start(
            center: main, others: .labeled(prefix: "\(tag)."), directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        var events = reader.read(until: { event in
            event.registration?.id != nil && Self.labels([], header: reader.header).isEmpty == false
                && event.registration?.name == ping.rawValue
        })
        let after = NotifyCenter(label: "\(tag).after")
        let late = after.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        before.post(name: ping)
        after.post(name: ping)
        events += reader.read(untilThe: 2) { event in
            if case .delivered(let delivery) = event { delivery.name == ping.rawValue } else { false }
        }
        let labels = Self.labels(events, header: reader.header)
        let registered = events.compactMap(\.registration).filter { $0.name == ping.rawValue }
            .compactMap { labels[$0.center ?? 0] }
        #expect(registered.contains("\(tag).before"))
        #expect(registered.contains("\(tag).after"))
        let posted = Self.postLabels(events, header: reader.header)
        #expect(posted.contains("\(tag).before"))
        #expect(posted.contains("\(tag).after"))
        withExtendedLifetime((early, late, before, after)) {}
    }

    @Test("which other centers an inspector streams, by label")
    func otherCentersByLabel() {
        typealias Others = NotifyInspector.OtherCenters
        #expect(!Others.all.leavesOut("sync.orders"))
        #expect(Others.none.leavesOut("sync.orders"))
        #expect(Others.all(except: ["scratch"]).leavesOut("scratch"))
        #expect(!Others.all(except: ["scratch"]).leavesOut("scratch2"))
        let sync = Others.labeled(prefix: "sync.", except: ["sync.tmp"])
        #expect(!sync.leavesOut("sync.orders"))
        #expect(sync.leavesOut("sync.tmp"))
        #expect(sync.leavesOut("syncer"))
        #expect(sync.leavesOut(""))
    }

    @Test("a center whose label is left out is not streamed; the others are")
    func leftOutByLabel() throws {
        let temporary = TemporaryDirectory()
        let tag = Self.tag()
        let main = NotifyCenter(label: "\(tag).main")
        let inspector = try NotifyInspector.start(
            center: main, others: .labeled(prefix: "\(tag).", except: ["\(tag).hidden"]),
            directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        _ = reader.read(until: { _ in reader.header != nil })
        let hidden = NotifyCenter(label: "\(tag).hidden")
        let shown = NotifyCenter(label: "\(tag).shown")
        let tokens = [hidden, shown].map { $0.addObserver(forName: ping, object: nil, queue: nil) { _ in } }
        hidden.post(name: ping)
        shown.post(name: ping)
        let events = reader.read(untilThe: 1) { event in
            if case .posted(let post) = event { post.name == ping.rawValue } else { false }
        }
        let labels = Self.labels(events, header: reader.header)
        #expect(labels.values.contains("\(tag).shown"))
        #expect(!labels.values.contains("\(tag).hidden"))
        #expect(Self.postLabels(events, header: reader.header) == ["\(tag).shown"])
        withExtendedLifetime((tokens, hidden, shown)) {}
    }

    @Test("a center dropped with three observers ends each of them, and none stays live")
    func droppedCenterEndsItsRegistrations() throws {
        let temporary = TemporaryDirectory()
        let tag = Self.tag()
        let main = NotifyCenter(label: "\(tag).main")
        let inspector = try NotifyInspector.start(
            center: main, others: .labeled(prefix: "\(tag)."), directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        var events = reader.read(until: { _ in reader.header != nil })
        var doomed: NotifyCenter? = NotifyCenter(label: "\(tag).doomed")
        let tokens = (0..<3).map { _ in doomed!.addObserver(forName: ping, object: nil, queue: nil) { _ in } }
        doomed!.post(name: ping)
        doomed = nil
        events += reader.read(untilThe: 3) { event in
            if case .removed(let removal) = event { removal.reason == .centerDeallocated } else { false }
        }
        let labels = Self.labels(events, header: reader.header)
        let index = try #require(labels.first { $0.value == "\(tag).doomed" }?.key)
        let ids = Set(events.compactMap(\.registration).filter { $0.center == index }.map(\.id))
        #expect(ids.count == 3)
        let ended = events.compactMap { event -> UInt64? in
            guard case .removed(let removal) = event, removal.reason == .centerDeallocated else { return nil }
            return removal.registration
        }
        #expect(Set(ended) == ids)

        var state = InspectorState()
        if let header = reader.header { state.apply(.header(header)) }
        state.apply(events)
        let rows = state.rows.filter { $0.occupied && ids.contains($0.id) }
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { !$0.isLive })
        #expect(rows.allSatisfy { state.centerLabel($0.center) == "\(tag).doomed" })
        withExtendedLifetime(tokens) {}
    }

    @Test("centers made and dropped one after another reuse their places: more than 256 stream")
    func endedCentersGiveTheirPlaceBack() throws {
        let temporary = TemporaryDirectory()
        let tag = Self.tag()
        let main = NotifyCenter(label: "\(tag).main")
        let inspector = try NotifyInspector.start(
            center: main, others: .labeled(prefix: "\(tag)."), directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        var events = reader.read(until: { _ in reader.header != nil })
        let total = 300
        for batch in stride(from: 0, to: total, by: 100) {
            for number in batch..<batch + 100 {
                let center = NotifyCenter(label: "\(tag).seq-\(number)")
                let token = center.addObserver(forName: ping, object: nil, queue: nil) { _ in }
                center.post(name: ping)
                withExtendedLifetime(token) {}
            }
            // As a test suite's tests do: some time between one batch of centers and the next.
            let last = "\(tag).seq-\(batch + 99)"
            var lastIndex: UInt32?
            events += reader.read(until: { event in
                if case .center(let center) = event, center.label == last { lastIndex = center.index }
                guard case .posted(let post) = event, let lastIndex else { return false }
                return post.center == lastIndex
            })
            usleep(50_000)
        }
        let posted = Set(Self.postLabels(events, header: reader.header).filter { $0.hasPrefix("\(tag).seq-") })
        #expect(posted.count == total)
        #expect(!events.contains { $0.gap?.reason == .centerLimit })
    }

    @Test("more centers alive at once than an inspector streams: the rest are counted as a loss")
    func centersBeyondTheLimitAreCounted() throws {
        let temporary = TemporaryDirectory()
        let tag = Self.tag()
        let main = NotifyCenter(label: "\(tag).main")
        let inspector = try NotifyInspector.start(
            center: main, others: .labeled(prefix: "\(tag)."), directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        _ = reader.read(until: { _ in reader.header != nil })
        let alive = (0..<300).map { NotifyCenter(label: "\(tag).crowd-\($0)") }
        // 255 places beside `main`.
        let beyond = UInt64(alive.count - (NotifyInspector.maximumCenters - 1))
        var counted: UInt64 = 0
        // A long deadline: under ThreadSanitizer, with the other suites running, the exporter's
        // passes come seconds apart.
        let events = reader.read(
            until: { event in
                if let gap = event.gap, gap.reason == .centerLimit { counted += gap.count }
                return counted >= beyond
            }, seconds: 60)
        #expect(counted == beyond)
        var state = InspectorState()
        if let header = reader.header { state.apply(.header(header)) }
        state.apply(events)
        #expect(state.eventsLost >= counted)
        withExtendedLifetime(alive) {}
    }
}
