import Foundation
import NotifyKit
import NotifySystem
import NotifyTestSupport
import NotifyTraceApp
import NotifyTraceViewer
import NotifyWire
import Testing

private let watched = Notification.Name("trace.watched")

private final class Subject: Sendable {}

/// Format 1.5's lines as an inspector sends them: a removal names its call's site, and a dead
/// object filter is reported by the inspector's periodic look, with no post of its name.
@Suite("Why lines from an inspector", .serialized, .timeLimit(.minutes(10)))
struct WhyLinesExportTests {
    @Test("a cancelled token's removal names the cancel() call; a released filter object is reported without a post")
    func removalSiteAndFilterDeath() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter(label: "why")
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        _ = reader.read(until: { if case .tick = $0 { true } else { false } })
        #expect(reader.header?.version == TraceFormatVersion(major: 1, minor: 5))

        let cancelled = center.addObserver(forName: watched, object: nil, queue: nil) { _ in }
        let cancelLine = #line + 1
        cancelled.cancel()
        var subject: Subject? = Subject()
        let filtered = center.addObserver(forName: watched, object: subject, queue: nil) { _ in }
        subject = nil
        var events = reader.read(until: { event in
            if case .objectDead(let death) = event { return death.registration == filtered.registrationID }
            return false
        })
        #expect(!events.contains { if case .posted = $0 { true } else { false } }, "found with no post")
        center.post(name: watched)
        events += reader.read(until: { event in
            if case .removed(let removal) = event { return removal.registration == filtered.registrationID }
            return false
        })

        var sites: [UInt64: TraceCallsite] = [:]
        for case .callsite(let site) in events { sites[site.id] = site }
        let removals = events.compactMap { if case .removed(let removal) = $0 { removal } else { nil } }
        let cancel = removals.first { $0.registration == cancelled.registrationID }
        #expect(cancel?.reason == .tokenCancelled)
        #expect(cancel?.callsite.flatMap { sites[$0] }?.line == UInt(cancelLine))
        #expect(cancel?.callsite.flatMap { sites[$0] }?.file == "NotifyTraceTests/WhyLinesExportTests.swift")

        let deaths = events.compactMap { if case .objectDead(let death) = $0 { death } else { nil } }
        #expect(deaths.map(\.registration) == [filtered.registrationID], "reported once, by the look")
        let registered = events.compactMap { if case .registered(let r) = $0 { r } else { nil } }
        #expect(deaths.first?.object == registered.first { $0.id == filtered.registrationID }?.object)
        #expect(deaths.first.map { $0.aliveAt <= $0.timestamp } == true)
        #expect(removals.last?.reason == .objectDeallocated && removals.last?.callsite == nil)

    }
}

@Suite("One inspected center per process", .serialized, .timeLimit(.minutes(10)))
struct OneStreamPerProcessTests {
    @Test("a second inspector in the same directory is refused while the first runs, and allowed after it stops")
    func secondInspectorIsRefused() throws {
        let temporary = TemporaryDirectory()
        let first = try NotifyInspector.start(
            center: NotifyCenter(label: "one"), others: .none, directory: temporary.socketDirectory)
        #expect(throws: TraceError.self) {
            _ = try NotifyInspector.start(
                center: NotifyCenter(label: "two"), others: .none, directory: temporary.socketDirectory)
        }
        let reader = try TraceReader.connect(socketPath: first.socketPath)
        _ = reader.read(until: { if case .tick = $0 { true } else { false } })
        #expect(reader.header?.center == "one")
        first.stop()
        let second = try NotifyInspector.start(
            center: NotifyCenter(label: "two"), others: .none, directory: temporary.socketDirectory)
        second.stop()
    }
}
