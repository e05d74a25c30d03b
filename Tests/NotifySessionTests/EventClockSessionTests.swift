import ArgumentParser
import Foundation
import Glibc
import NotifyCommandLine
import NotifyTestSupport
import NotifyWire
import NotifyModel
@testable import NotifySession
import NotifySystem
import NotifyTraceViewer
import NotifyTUI
import Testing

/// The session never feeds a wall clock into the model: a replay at any speed, with or without
/// bounds, ends in the state the live session had at the same event, and stops there.
@Suite(.timeLimit(.minutes(10)))
struct EventClockSessionTests {
    static let second: UInt64 = 1_000_000_000

    /// A recording as `r` makes it mid-session: the header's clock base is the session's, 100 s
    /// before the recording's first event. 30 s of four registrations a second at one callsite
    /// (never removed: R6, an error past 100 live), an observer of a name nobody posts (R10), a
    /// post every 250 ms, then 10 quiet seconds carried by clock lines.
    static func events(clockBase: UInt64 = 1_000 * second, first: UInt64 = 1_100 * second) -> [TraceEvent] {
        var script = TraceScript(
            header: TraceHeader(
                pid: 9, process: "Steady", center: "default", clockMono: clockBase, clockWall: 0, producer: "test"),
            time: first)
        script.site(50, file: "App/Feed.swift")
        script.site(60, file: "App/Quiet.swift")
        script.register(1, "neverSent", site: 60)
        var id: UInt64 = 10
        for _ in 0..<30 {
            for quarter in 0..<4 {
                script.register(id, "grows", site: 50)
                id += 1
                script.advance(second / 4)
                if quarter % 2 == 0 { script.post("other", matched: 0, site: 60) }
            }
        }
        for _ in 0..<10 {
            script.advance(second)
            script.tick()
        }
        return script.events
    }

    static func write(_ events: [TraceEvent]) throws -> String {
        let path = temporaryPath("clock", suffix: ".ndjson")
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes `events` as a producer would to a viewer's socket, all of them unless the viewer goes.
    static func send(_ events: [TraceEvent], to producer: UnixSocket) {
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        var sent = 0
        while sent < bytes.count {
            guard
                let count = bytes.withUnsafeBytes({
                    producer.writeSome(UnsafeRawBufferPointer(rebasing: $0[sent...]))
                })
            else { return }
            sent += count
        }
    }

    /// The live session's model after every event: the reference a replay must reach.
    static func live(_ events: [TraceEvent]) -> InspectorState {
        var model = InspectorState()
        model.apply(events)
        return model
    }

    /// Plays `path` at `speed` on a simulated wall clock, `step` per pass, until it ends.
    static func replay(
        _ path: String, speed: Double, step: UInt64 = 100_000_000, from: UInt64 = 0,
        to: UInt64? = nil
    ) throws -> DashboardSession {
        let session = DashboardSession(source: .replay(try ReplayFeed(path: path, speed: speed, from: from, to: to)))
        var wall = CPUMeter.wallNanoseconds()
        for _ in 0..<100_000 where !session.isEnded {
            wall += step
            session.poll(now: wall)
        }
        return session
    }

    struct Findings: Equatable {
        var rows: [String]
        init(_ model: InspectorState) {
            rows = model.findings.map {
                "\($0.rule.code) \($0.key) \($0.severity) open=\($0.isOpen) count=\($0.evidence.count)"
                    + " first=\($0.firstSeen) last=\($0.lastSeen)"
            }
        }
    }

    @Test("a replay at speed 0, 1 and 64 ends with the live session's findings, R6 and R10 included")
    func everySpeedSameFindings() throws {
        let events = Self.events()
        let path = try Self.write(events)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let live = Self.live(events)
        #expect(live.findings.contains { $0.rule == .registrationGrowth && $0.isOpen && $0.severity == .error })
        #expect(live.findings.contains { $0.rule == .neverPosted && $0.isOpen })
        for speed in [0.0, 1, 64] {
            let session = try Self.replay(path, speed: speed, step: speed == 0 ? 1 : 250_000_000)
            #expect(session.isEnded, "speed \(speed)")
            #expect(Findings(session.model) == Findings(live), "speed \(speed)")
            #expect(session.model.checkpoints == live.checkpoints, "speed \(speed)")
            var overview = session.model.overview
            overview.stream = live.stream  // ENDED against LIVE: the transport's state, not the fold's
            #expect(overview == live.overview, "speed \(speed)")
        }
    }

    @Test("--batch --view leaks --fail-on error exits 3 on a recording whose only error is R6")
    func failOnGrowthError() throws {
        let path = try Self.write(Self.events())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let errors = Self.live(Self.events()).findings.filter { $0.isOpen && $0.severity == .error }
        #expect(errors.map(\.rule) == [.registrationGrowth])
        let options = try NotifyTopOptions.parse([
            "--replay", path, "--batch", "--json", "--view", "leaks", "--fail-on", "error", "-n", "1",
        ])
        #expect(NotifyTopRunner.run(options) == NotifyTopRunner.leaksFound)
    }

    @Test("an ended replay's clock stops at the last event: more wall time moves neither the model nor the feed")
    func endedClockStops() throws {
        let events = Self.events()
        let path = try Self.write(events)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let last = events.compactMap(\.timestamp).max() ?? 0
        let session = try Self.replay(path, speed: 64, step: 500_000_000)
        #expect(session.isEnded)
        var wall = CPUMeter.wallNanoseconds() + 3_600 * Self.second
        for _ in 0..<5 {
            wall += 600 * Self.second
            session.poll(now: wall)
        }
        #expect(session.model.now == last)
        guard case .replay(let feed) = session.source else { return }
        #expect(feed.now == last)
        let line = BatchJSON.line(session.data, view: session.view, iteration: 1)
        #expect(line.contains("\"stream_time_ns\":\(40 * Self.second)"), "\(line)")
    }

    @Test("a wall-clock jump too large for the replay clock at top speed plays to the end instead of trapping")
    func hugeJumpSaturates() throws {
        let events = Self.events()
        let path = try Self.write(events)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let feed = try ReplayFeed(path: path, speed: 64)
        _ = feed.step(events: 1)
        _ = feed.advance(elapsedNanoseconds: UInt64(Int64.max), limit: .max)
        #expect(feed.isFinished)
        #expect(feed.step(events: 1).isEmpty)
    }

    @Test("--from and --to count from a mid-session recording's first event, not its header's clock base")
    func boundsFromRecordingStart() throws {
        let events = Self.events()
        let path = try Self.write(events)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = events.compactMap(\.timestamp).min() ?? 0
        let within = events.filter {
            guard case .posted(let post) = $0 else { return false }
            return post.timestamp - first <= 15 * Self.second
        }.count
        let session = try Self.replay(path, speed: 0, from: 10 * Self.second, to: 15 * Self.second)
        #expect(session.isEnded)
        #expect(session.model.totals.posts == UInt64(within))
        #expect(within == 30)
        #expect(session.status.mode == .ended("reached --to 15.0 s"))
        let line = BatchJSON.line(session.data, view: session.view, iteration: 1)
        #expect(line.contains("\"stream_time_ns\":\(15 * Self.second)"), "counts from the recording's start: \(line)")
    }

    @Test("g on a mid-session recording goes to that time after its start; past the end it says so")
    func goToOnMidSessionRecording() throws {
        let path = try Self.write(Self.events())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ten = try ReplaySeekTests.session(path, keys: [.char("g")] + ReplaySeekTests.typed("10s") + [.enter])
        #expect(ten.model.totals.posts == 20)
        #expect(ten.lastMessage == nil)
        let beyond = try ReplaySeekTests.session(path, keys: [.char("g")] + ReplaySeekTests.typed("2m") + [.enter])
        #expect(
            beyond.lastMessage?.contains("past the recording's end") == true, "\(beyond.lastMessage ?? "no message")")
        #expect(beyond.model.totals.posts == 60)
    }

    @Test("the live session's model never moves without events: wall-clock jumps change nothing, clock lines do")
    func liveModelFollowsEventsOnly() throws {
        let path = temporaryPath("clock", suffix: ".sock")
        let listener = try UnixSocket.listen(at: path)
        defer {
            listener.close()
            unlink(path)
        }
        let session = DashboardSession(source: .live(LiveFeed(reader: try TraceReader.connect(socketPath: path))))
        let producer = try #require(acceptedConnection(on: listener))
        defer {
            producer.close()
            session.stopFeed()
        }
        let prefix = Array(Self.events().prefix(20))
        Self.send(prefix, to: producer)
        let count = UInt64(prefix.count)
        _ = session.pollUntil { session.model.totals.events == count }
        #expect(session.model.totals.events == count)
        let now = session.model.now
        let checkpoints = session.model.checkpoints
        var wall = CPUMeter.wallNanoseconds()
        for _ in 0..<10 {
            wall += 3_600 * Self.second
            session.poll(now: wall)
        }
        #expect(session.model.now == now)
        #expect(session.model.checkpoints == checkpoints)
        Self.send([.tick(TraceTick(seq: 10_000, timestamp: now + 20 * Self.second))], to: producer)
        _ = session.pollUntil { session.model.now == now + 20 * Self.second }
        #expect(session.model.now == now + 20 * Self.second)
        #expect(session.model.checkpoints > checkpoints)
    }
}
