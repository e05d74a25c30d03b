import Foundation
import NotifyTestSupport
import NotifyWire
import NotifyModel
@testable import NotifySession
import NotifyTraceViewer
import NotifyTUI
import Testing

/// A recording started with `r` mid-session replays to the live model at that moment: orphaned
/// registrations stay orphaned, growth samples and never-posted waits carry over, and ages are
/// the app's.
struct RecordingPreludeTests {
    static let base: UInt64 = 9_000_000_000

    /// A session's first part: an orphaned block registration that delivered after its token
    /// dropped (R1, error), an owner-bound registration whose token was released, a (name, site)
    /// growing over five checkpoints (R6), names never posted (R10).
    static func before() -> [TraceEvent] {
        var seq: UInt64 = 0
        var time = base
        func stamp() -> (UInt64, UInt64) {
            seq += 1
            time += 10_000_000
            return (seq, time)
        }
        var events: [TraceEvent] = [
            .header(
                TraceHeader(
                    pid: 77, process: "App", center: "default", clockMono: base,
                    clockWall: 1_700_000_000_000_000_000, producer: "test")),
            .thread(TraceThread(seq: 0, timestamp: base, id: 1, systemID: 77, name: "main", isMain: true)),
            .type(TraceType(id: 1, name: "App.Screen")),
            .object(TraceObject(id: 2, type: 1, address: 0x6000_0000_1000)),
            .callsite(TraceCallsite(id: 3, file: "App/Leaky.swift", line: 10)),
            .callsite(TraceCallsite(id: 4, file: "App/Grow.swift", line: 20)),
            .callsite(TraceCallsite(id: 5, file: "App/Owner.swift", line: 30)),
        ]
        func register(_ id: UInt64, _ name: String, _ kind: TraceRegistrationKind, site: UInt64) {
            let (s, t) = stamp()
            events.append(
                .registered(
                    TraceRegistration(
                        seq: s, timestamp: t, thread: 1, id: id, name: name, kind: kind,
                        observer: kind == .ownerBound ? 2 : nil, object: nil, target: .posting, targetLabel: nil,
                        callsite: site, preexisting: false, capturesObserverStrongly: false)))
        }
        func dropToken(_ id: UInt64) {
            let (s, t) = stamp()
            events.append(.tokenDropped(TraceTokenDrop(seq: s, timestamp: t, thread: 1, registration: id)))
        }
        register(1, "cartDidChange", .block, site: 3)
        dropToken(1)
        register(2, "ownerDidChange", .ownerBound, site: 5)
        dropToken(2)
        let (s, t) = stamp()
        events.append(
            .posted(
                TracePost(
                    seq: s, timestamp: t, thread: 1, postID: 1, name: "cartDidChange",
                    object: nil, hasUserInfo: false, matched: 1, depth: 1, parentPostID: 0,
                    callsite: 3)))
        let (ds, dt) = stamp()
        events.append(
            .delivered(
                TraceDelivery(
                    seq: ds, timestamp: dt, thread: 1, postID: 1, registration: 1,
                    name: "cartDidChange", postingThread: 1, target: .posting,
                    start: dt - 1_000, duration: 1_000, wait: 0, depth: 1)))
        for index in 0..<5 {
            register(10 + UInt64(index), "grow", .block, site: 4)
            let (cs, ct) = stamp()
            events.append(.checkpoint(TraceCheckpoint(seq: cs, timestamp: ct, thread: 1, label: "screen", callsite: 4)))
        }
        return events
    }

    /// What happens while recording: the orphaned registration delivers again, one more grows.
    static func during(after events: [TraceEvent]) -> [TraceEvent] {
        var seq = events.compactMap(\.seq).max() ?? 0
        var time = events.compactMap(\.timestamp).max() ?? base
        seq += 1
        time += 10_000_000
        let post = TraceEvent.posted(
            TracePost(
                seq: seq, timestamp: time, thread: 1, postID: 2, name: "cartDidChange", object: nil,
                hasUserInfo: false, matched: 1, depth: 1, parentPostID: 0, callsite: 3))
        let delivery = TraceEvent.delivered(
            TraceDelivery(
                seq: seq + 1, timestamp: time + 1_000, thread: 1, postID: 2, registration: 1, name: "cartDidChange",
                postingThread: 1, target: .posting, start: time, duration: 1_000, wait: 0, depth: 1))
        let growth = TraceEvent.registered(
            TraceRegistration(
                seq: seq + 2, timestamp: time + 2_000, thread: 1, id: 20, name: "grow", kind: .block, observer: nil,
                object: nil, target: .posting, targetLabel: nil, callsite: 4, preexisting: false,
                capturesObserverStrongly: false))
        return [post, delivery, growth]
    }

    static func temporaryPath() -> String {
        NotifyTestSupport.temporaryPath("prelude", suffix: ".ndjson")
    }

    static func replay(_ path: String) throws -> InspectorState {
        let reader = try TraceReader.open(file: path)
        var model = InspectorState()
        while case .event(let event) = reader.next(timeoutMilliseconds: 0) { model.apply(event) }
        return model
    }

    @Test("r after a token drop, growth and never-posted checkpoints replays to the live findings and rows")
    func preludeReplaysToTheLiveModel() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = Self.before()
        let session = DashboardSession(source: .fixed(before))
        session.recordingPath = path
        let terminal = InMemoryTerminal(size: Size(width: 100, height: 30), keys: [.char("r")])
        _ = session.run(on: terminal, maxFrames: 2)
        let atStart = session.model
        let rules = Set(atStart.findings.filter(\.isOpen).map(\.key.rule))
        #expect(rules.isSuperset(of: [.orphanedRegistration, .registrationGrowth, .neverPosted]))
        #expect(atStart.finding(LeakFindingKey(rule: .orphanedRegistration, subject: .callsite(3)))?.severity == .error)

        session.ingest(Self.during(after: before))
        terminal.pendingKeys = [.char("r")]
        _ = session.run(on: terminal, maxFrames: 2)
        #expect(session.status.recordingPath == nil)

        let replayed = try Self.replay(path)
        var live = InspectorState()
        live.apply(before + Self.during(after: before))
        #expect(replayed.findings == live.findings)
        #expect(replayed.registrations == live.registrations)
        #expect(replayed.registration(1)?.token.isDropped == true)
        #expect(replayed.checkpoints == 5)
    }

    @Test("a replay of a mid-session recording starts its clock when recording started")
    func replayClockStartsAtTheRecording() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = Self.before()
        var memory = SessionRecorder.Memory()
        for event in before { memory.observe(event) }
        var recorder = try SessionRecorder(path: path, memory: memory)
        for event in Self.during(after: before) { recorder.write(event) }
        recorder.flush()

        let recordedAt = try #require(before.compactMap(\.timestamp).max())
        let feed = try ReplayFeed(path: path, speed: 1)
        // Everything up to the moment recording started is due at once, the rest is paced.
        let first = feed.advance(elapsedNanoseconds: 0)
        #expect(first.compactMap(\.timestamp).allSatisfy { $0 <= recordedAt })
        #expect(first.contains { if case .checkpoint = $0 { true } else { false } })
        #expect(feed.start == recordedAt)
    }

    @Test("a history of several chunks opens a recording with every event, in order")
    func longHistoryKeepsOrderAcrossChunks() {
        let header = TraceHeader(
            pid: 79, process: "App", center: "default", clockMono: Self.base, clockWall: 1_700_000_000_000_000_000,
            producer: "test")
        var memory = SessionRecorder.Memory()
        memory.observe(.header(header))
        let ticks = (1...(2 * SessionRecorder.Memory.historyChunk + 17)).map { index in
            TraceEvent.tick(TraceTick(seq: UInt64(index), timestamp: Self.base + UInt64(index)))
        }
        for tick in ticks { memory.observe(tick) }
        #expect(memory.historyIsComplete)
        let prelude = memory.prelude() ?? []
        #expect(prelude.count == ticks.count + 1)
        #expect(Array(prelude.dropFirst()) == ticks)
    }

    @Test("past the history limit the prelude still carries token drops and real registration times")
    func statePreludeCarriesTokensAndTimes() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = Self.before()
        var memory = SessionRecorder.Memory(historyLimit: 4)
        for event in before { memory.observe(event) }
        #expect(!memory.historyIsComplete)
        let recorder = try SessionRecorder(path: path, memory: memory)
        recorder.flush()

        var live = InspectorState()
        live.apply(before)
        let replayed = try Self.replay(path)
        let orphaned = try #require(replayed.registration(1))
        #expect(orphaned.preexisting)
        #expect(orphaned.token.isDropped)
        #expect(orphaned.registeredAt == live.registration(1)?.registeredAt)
        #expect(orphaned.age(at: replayed.now) == live.registration(1)?.age(at: live.now))
        #expect(replayed.findings.contains { $0.isOpen && $0.rule == .orphanedRegistration })
        #expect(replayed.registration(2)?.token.description == "owner")
        #expect(replayed.registrations.map(\.id) == live.registrations.map(\.id))
    }

    @Test("a replay ticks the prelude at its own times, so the live session's automatic checkpoints happen again")
    func preludeReplaysAutomaticCheckpoints() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var events: [TraceEvent] = [
            .header(
                TraceHeader(
                    pid: 78, process: "App", center: "default", clockMono: Self.base,
                    clockWall: 1_700_000_000_000_000_000, producer: "test")),
            .thread(TraceThread(seq: 1, timestamp: Self.base, id: 1, systemID: 78, name: "main", isMain: true)),
            .callsite(TraceCallsite(id: 4, file: "App/Grow.swift", line: 20)),
        ]
        // One more registration every 6 s for 48 s, no app checkpoints: growth is seen only by the
        // checkpoints ticks take every 5 s.
        for index in 0..<9 {
            let time = Self.base + UInt64(index) * 6_000_000_000
            events.append(
                .registered(
                    TraceRegistration(
                        seq: UInt64(index + 2), timestamp: time, thread: 1, id: UInt64(100 + index), name: "grow",
                        kind: .block, observer: nil, object: nil, target: .posting, targetLabel: nil, callsite: 4,
                        preexisting: false, capturesObserverStrongly: false)))
        }
        var live = InspectorState()
        for event in events {
            live.apply(event)
            if let time = event.timestamp { live.tick(now: time) }
        }
        #expect(live.checkpoints >= 8)
        #expect(live.findings.contains { $0.rule == .registrationGrowth && $0.isOpen })

        var memory = SessionRecorder.Memory()
        for event in events { memory.observe(event) }
        let recorder = try SessionRecorder(path: path, memory: memory)
        recorder.flush()
        let replay = DashboardSession(source: .replay(try ReplayFeed(path: path, speed: 0)))
        replay.poll(now: 1)
        replay.poll(now: 2)
        #expect(replay.model.checkpoints == live.checkpoints)
        #expect(replay.model.findings.filter(\.isOpen).map(\.key) == live.findings.filter(\.isOpen).map(\.key))
    }
}
