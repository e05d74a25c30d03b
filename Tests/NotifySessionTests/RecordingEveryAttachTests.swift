import Foundation
import NotifyModel
@testable import NotifySession
import NotifySystem
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyTraceViewer
import NotifyTUI
import NotifyWire
import Testing

/// `r` records whatever the views are attached to, however they got there (the overview, a
/// switch to another process, a restart), and a recording the user ends says so.
@Suite(.timeLimit(.minutes(10)))
struct RecordingEveryAttachTests {
    typealias Overview = ProcessOverviewTests

    static func temporaryPath() -> String {
        NotifyTestSupport.temporaryPath("every-attach", suffix: ".ndjson")
    }

    /// Every event of the file at `path`, and how its stream ended.
    static func read(_ path: String) throws -> (events: [TraceEvent], end: TraceStreamEnd?) {
        let reader = try TraceReader.open(file: path)
        var events: [TraceEvent] = []
        while true {
            switch reader.next(timeoutMilliseconds: 0) {
            case .event(let event): events.append(event)
            case .idle: continue
            case .ended(let end): return (events, end)
            }
        }
    }

    static func fold(_ events: [TraceEvent]) -> InspectorState {
        var model = InspectorState()
        model.apply(events)
        return model
    }

    /// Presses `keys` on the session, one frame each and one more.
    static func press(_ keys: [Key], on session: DashboardSession) {
        let terminal = InMemoryTerminal(size: Size(width: 150, height: 20), keys: keys)
        _ = session.run(on: terminal, maxFrames: keys.count + 1)
    }

    @Test("r after Enter on the overview records the attached process; the file replays to the session's model")
    func recordFromTheOverview() throws {
        let (host, cleanup) = try Overview.host()
        defer { cleanup() }
        let session = Overview.session(host)
        defer { session.overview?.stop() }
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        session.recordingPath = path
        #expect(session.pollUntil { Overview.complete(session) })
        Self.press([.down, .enter], on: session)
        #expect(session.attachedProcess?.pid == 20)
        Self.press([.char("r")], on: session)
        #expect(session.status.recordingPath == path, "\(String(describing: session.status.message))")
        #expect(session.status.message?.hasPrefix("recording to ") == true)
        Self.press([.char("r")], on: session)
        #expect(session.status.recordingPath == nil)
        let replayed = Self.fold(try Self.read(path).events)
        #expect(replayed.header?.pid == session.model.header?.pid)
        #expect(replayed.totals.posts == session.model.totals.posts)
        #expect(replayed.totals.deliveries == session.model.totals.deliveries)
        #expect(replayed.liveRegistrations == Overview.fold(registrations: 5).liveRegistrations)
        #expect(replayed.findings.filter(\.isOpen).count == session.model.findings.filter(\.isOpen).count)
    }

    @Test("r on the overview with no process attached says what to do, and writes nothing")
    func recordWithNothingAttached() throws {
        let (host, cleanup) = try Overview.host()
        defer { cleanup() }
        let session = Overview.session(host)
        defer { session.overview?.stop() }
        let path = Self.temporaryPath()
        session.recordingPath = path
        #expect(session.pollUntil { Overview.complete(session) })
        Self.press([.char("r")], on: session)
        #expect(session.status.recordingPath == nil)
        #expect(session.status.message?.contains("no process attached") == true)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("r after switching to another process, and after following a restart, records that process")
    func recordAfterSwitchAndRestart() throws {
        let (host, cleanup) = try Overview.host()
        defer { cleanup() }
        let session = Overview.session(host)
        defer { session.overview?.stop() }
        #expect(session.pollUntil { Overview.complete(session) })
        session.attach(pid: 10, now: CPUMeter.wallNanoseconds())
        session.attach(pid: 20, now: CPUMeter.wallNanoseconds())
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        session.recordingPath = path
        Self.press([.char("r"), .char("r")], on: session)
        let switched = Self.fold(try Self.read(path).events)
        #expect(switched.liveRegistrations == Overview.fold(registrations: 5).liveRegistrations)
        // The first process's fold went back to its own row, not the second's.
        let rows = Overview.rows(session)
        #expect(
            rows.first { $0.pid == 10 }?.summary.liveRegistrations == Overview.fold(registrations: 0).liveRegistrations)

        let (restarting, cleanupRestarting) = try Overview.host()
        defer { cleanupRestarting() }
        restarting.set([10], name: "shop")
        let other = Overview.session(restarting)
        defer { other.overview?.stop() }
        #expect(other.pollUntil { Overview.rows(other).count == 1 })
        other.attach(pid: 10, now: CPUMeter.wallNanoseconds())
        #expect(other.pollUntil { other.ended })
        other.poll(now: CPUMeter.wallNanoseconds())
        restarting.set([10, 20], name: "shop")
        let restarted = Overview.fold(registrations: 5)
        #expect(
            other.pollUntil {
                other.attachedProcess?.pid == 20 && other.model.totals.events == restarted.totals.events
            })
        let second = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: second) }
        other.recordingPath = second
        Self.press([.char("r"), .char("r")], on: other)
        #expect(other.status.message?.contains("cannot record") != true, "\(String(describing: other.status.message))")
        #expect(Self.fold(try Self.read(second).events).liveRegistrations == restarted.liveRegistrations)
    }

    @Test("a recording stopped with r, or by quitting, ends with an end line and replays as stopped by the user")
    func userEndedRecording() throws {
        let before = RecordingPreludeTests.before()
        for stop in [Key.char("r"), .char("q")] {
            let session = DashboardSession(source: .fixed(before))
            let path = Self.temporaryPath()
            defer { try? FileManager.default.removeItem(atPath: path) }
            session.recordingPath = path
            Self.press([.char("r")], on: session)
            session.ingest(RecordingPreludeTests.during(after: before))
            let terminal = InMemoryTerminal(size: Size(width: 120, height: 24), keys: [stop])
            _ = session.run(on: terminal, maxFrames: 3)
            let (events, end) = try Self.read(path)
            guard case .end(let line)? = events.last else {
                Issue.record("no end line after \(stop): \(String(describing: events.last))")
                continue
            }
            #expect(line.reason == .recordingStopped)
            let lastSeq = events.dropLast().compactMap(\.seq).max() ?? 0
            #expect(line.seq == lastSeq + 1)
            #expect(line.timestamp == events.dropLast().compactMap(\.timestamp).max())
            #expect(end?.description == "recording stopped by the user")

            let replay = DashboardSession(source: .replay(try ReplayFeed(path: path, speed: 0)))
            #expect(replay.pollUntil { replay.isEnded })
            #expect(replay.status.mode == .ended("recording stopped by the user"))
            #expect(!replay.actions.entries.contains { $0.text.contains("cut off") })
        }
    }

    @Test("a recording whose stream ended first keeps the stream's own end line, and only it")
    func streamEndedFirst() throws {
        var events = RecordingPreludeTests.before()
        let session = DashboardSession(source: .fixed(events))
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        session.recordingPath = path
        Self.press([.char("r")], on: session)
        let last = events.compactMap(\.seq).max() ?? 0
        events = [
            .end(TraceEnd(seq: last + 1, timestamp: RecordingPreludeTests.base + 1_000_000_000, reason: .processExit))
        ]
        session.ingest(events)
        Self.press([.char("r")], on: session)
        let (written, end) = try Self.read(path)
        let ends = written.filter { if case .end = $0 { true } else { false } }
        #expect(ends.count == 1)
        #expect(end == .processExited)
    }
}

extension RecordingEveryAttachTests {
    @Test("r names its file after the next number no file has, so an earlier run's recordings are kept")
    func recordingNumbersSkipExistingFiles() {
        var count = 0
        let taken: Set = ["notifytop-7-1.ndjson", "notifytop-7-2.ndjson"]
        #expect(
            DashboardSession.nextRecordingPath(pid: 7, count: &count) { taken.contains($0) } == "notifytop-7-3.ndjson")
        #expect(
            DashboardSession.nextRecordingPath(pid: 7, count: &count) { taken.contains($0) } == "notifytop-7-4.ndjson")
        #expect(count == 4)
    }

    @Test("r before any header creates no file")
    func nothingToRecordCreatesNoFile() {
        let path = Self.temporaryPath()
        #expect(throws: TraceError.self) { try SessionRecorder(path: path, memory: SessionRecorder.Memory()) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

extension RecordingEveryAttachTests {
    @Test("the overview's processes share one history budget; past it, r records the attached process's state")
    func overviewHistoryBudget() throws {
        let (host, cleanup) = try Overview.host()
        defer { cleanup() }
        var view = ViewState()
        view.showsOverview = true
        let session = DashboardSession(source: .fixed([]), view: view)
        let overview = ProcessOverview(host: host, historyBudget: 20)
        session.overview = overview
        defer { overview.stop() }
        #expect(session.pollUntil { Overview.complete(session) })
        #expect(overview.entries.values.map(\.memory.historyLimit) == [10, 10])
        #expect(overview.entries.values.allSatisfy { !$0.memory.historyIsComplete })
        session.attach(pid: 20, now: CPUMeter.wallNanoseconds())
        #expect(session.memory.historyLimit == SessionRecorder.Memory.sessionHistoryLimit)
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        session.recordingPath = path
        Self.press([.char("r"), .char("r")], on: session)
        let replayed = Self.fold(try Self.read(path).events)
        #expect(replayed.liveRegistrations == Overview.fold(registrations: 5).liveRegistrations)
        #expect(replayed.header?.pid == 4242)
    }
}

extension RecordingEveryAttachTests {
    @Test("a live stream that ends while recording stops the recording, with the stream's own end line and no other")
    func streamEndStopsRecording() throws {
        let path = NotifyTestSupport.temporaryPath("rec-end", suffix: ".sock")
        let listener = try UnixSocket.listen(at: path)
        defer {
            listener.close()
            unlink(path)
        }
        let session = DashboardSession(source: .live(LiveFeed(reader: try TraceReader.connect(socketPath: path))))
        defer { session.stopFeed() }
        let producer = try #require(acceptedConnection(on: listener))
        let before = RecordingPreludeTests.before()
        EventClockSessionTests.send(before, to: producer)
        #expect(session.pollUntil { session.model.totals.events == UInt64(before.count) })
        let recording = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: recording) }
        session.recordingPath = recording
        Self.press([.char("r")], on: session)
        #expect(session.status.recordingPath == recording)
        let during = RecordingPreludeTests.during(after: before)
        let last = during.compactMap(\.seq).max() ?? 0
        EventClockSessionTests.send(
            during + [
                .end(
                    TraceEnd(
                        seq: last + 1, timestamp: RecordingPreludeTests.base + 60_000_000_000, reason: .processExit))
            ], to: producer)
        producer.close()
        #expect(session.pollUntil { session.isEnded })
        #expect(session.status.recordingPath == nil)
        let (events, end) = try Self.read(recording)
        #expect(events.filter { if case .end = $0 { true } else { false } }.count == 1)
        #expect(end == .processExited)
    }
}
