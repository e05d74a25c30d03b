import Foundation
@testable import NotifyCommandLine
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyWire
import NotifyModel
@testable import NotifySession
import NotifySystem
import NotifyTraceViewer
import NotifyTUI
import Testing

/// Automatic reattach: when the target's stream ends, keep the screen, watch the socket
/// directory for the same program, attach again with a fresh model.
///
/// The "processes" are this test process (alive, with a known name) behind a socket file in a
/// private directory, and the streams are recorded traces read through the live path.
@Suite(.timeLimit(.minutes(10)))
struct ReattachTests {
    final class Scratch {
        let directory = temporaryPath("reattach")
        init() { try? SocketDirectory(path: directory).prepare() }
        deinit { try? FileManager.default.removeItem(atPath: directory) }

        func write(_ events: [TraceEvent], name: String) throws -> String {
            var bytes: [UInt8] = []
            TraceEncoder.encode(events, into: &bytes)
            let path = directory + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }

        /// Makes this process look inspectable in ``directory``; returns its name as listed.
        func advertiseSelf() throws -> String {
            _ = try UnixSocket.listen(at: directory + "/\(getpid()).sock")
            return try #require(SocketDirectory(path: directory).inspectableProcesses().first { $0.pid == getpid() })
                .name
        }
    }

    static func exited(_ events: [TraceEvent]) -> [TraceEvent] {
        let last = events.last?.timestamp ?? 0
        let seq = events.compactMap(\.seq).max() ?? 0
        return events + [.end(TraceEnd(seq: seq + 1, timestamp: last + 1, reason: TraceEndReason.processExit))]
    }

    @Test("a process exit keeps the state on screen and waits; the restarted process is attached with a fresh model")
    func reattach() throws {
        let scratch = Scratch()
        let first = try scratch.write(Self.exited(Fixture.events()), name: "first.ndjson")
        let second = try scratch.write(Array(Fixture.events().prefix(25)), name: "second.ndjson")
        let name = try scratch.advertiseSelf()
        try FileManager.default.removeItem(atPath: scratch.directory + "/\(getpid()).sock")
        var connected: [String] = []
        let session = DashboardSession(source: .live(LiveFeed(reader: try TraceReader.open(file: first))))
        session.reattacher = Reattacher(
            match: .processName(name), directory: SocketDirectory(path: scratch.directory), lastPid: 4242,
            connect: { path throws(TraceError) in
                connected.append(path)
                return try TraceReader.open(file: second)
            })
        let clock = PollClock(step: 10_000_000)
        #expect(session.pollUntil(clock: clock) { session.status.mode != .live })
        #expect(session.status.mode == .ended("process exited; waiting for \(name) to restart"))
        #expect(!session.isEnded)
        let firstEvents = session.model.totals.events
        #expect(firstEvents == UInt64(Fixture.events().count + 1))
        for _ in 0..<20 { session.poll(now: clock.advance(by: 300_000_000)) }
        #expect(session.model.totals.events == firstEvents, "nothing to attach to yet: the state stays")

        session.view = ViewState(view: .observers)
        session.view.drill[.observers] = [.registration(1)]
        _ = try scratch.advertiseSelf()
        #expect(session.pollUntil(clock: clock) { session.status.mode == .live })
        #expect(session.view.path.isEmpty, "the old process's detail page is gone")
        #expect(connected == [scratch.directory + "/\(getpid()).sock"])
        let actions = session.actions.entries
        #expect(
            actions.contains {
                $0.kind == .reconnect && $0.text == "reattached to pid \(getpid()) (\(second)); a fresh model starts"
            })
        #expect(actions.contains { $0.kind == .stream && $0.text.hasPrefix("stream ended (process exited)") })
        #expect(session.pollUntil(clock: clock) { session.isEnded })
        #expect(session.model.totals.events == 25, "a fresh model: only the second stream")
        #expect(session.status.mode == .ended("recording cut off: no end line"), "an end of file cannot restart")
    }

    @Test("without a reattacher (--no-reattach, --demo) the end of the stream ends the session")
    func noReattach() throws {
        let scratch = Scratch()
        let first = try scratch.write(Self.exited(Fixture.events()), name: "first.ndjson")
        let session = DashboardSession(source: .live(LiveFeed(reader: try TraceReader.open(file: first))))
        let clock = PollClock(from: 0, step: 10_000_000)
        #expect(session.pollUntil(clock: clock) { session.isEnded })
        #expect(session.status.mode == .ended("process exited"))
        #expect(!session.actions.entries.contains { $0.kind == .reconnect })
    }

    @Test("the pid that exited is not taken again, a socket target is retried until it answers, --record numbers files")
    func attempts() throws {
        let scratch = Scratch()
        let name = try scratch.advertiseSelf()
        let trace = try scratch.write(Fixture.events(), name: "trace.ndjson")
        let open: (String) throws(TraceError) -> TraceReader = { _ throws(TraceError) in
            try TraceReader.open(file: trace)
        }
        var same = Reattacher(
            match: .processName(name), directory: SocketDirectory(path: scratch.directory),
            lastPid: getpid(), connect: open)
        #expect(same.attempt(after: .processExited) == nil)
        #expect(same.attempt(after: .producerStopped("stopped")) != nil, "an inspector restarted in the same process")

        var answers = false
        var socket = Reattacher(
            match: .socket("/forwarded.sock"), recordPath: scratch.directory + "/run.ndjson",
            connect: { path throws(TraceError) in
                guard answers else { throw .invalid("connection refused") }
                return try TraceReader.open(file: trace)
            })
        #expect(socket.attempt(after: .disconnected) == nil)
        answers = true
        let found = socket.attempt(after: .disconnected)
        #expect(found?.note == "recording to \(scratch.directory)/run-2.ndjson")
        #expect(FileManager.default.fileExists(atPath: scratch.directory + "/run-2.ndjson"))
        #expect(!Reattacher.mayRestart(after: .endOfFile))
        #expect(!Reattacher.mayRestart(after: .failed("unknown version")))

        // A name already taken (an earlier session's run-3, a planted link at run-4) is passed over.
        let earlier = scratch.directory + "/run-3.ndjson"
        let target = try scratch.write([], name: "someone-else")
        try Data("earlier run\n".utf8).write(to: URL(fileURLWithPath: earlier))
        #expect(symlink(target, scratch.directory + "/run-4.ndjson") == 0)
        let next = socket.attempt(after: .disconnected)
        #expect(next?.note == "recording to \(scratch.directory)/run-5.ndjson")
        #expect(try String(contentsOfFile: earlier, encoding: .utf8) == "earlier run\n")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "")
    }

    @Test("--record across a restart: the last line names every file written, each with its bytes")
    func recordNamesEveryFile() throws {
        let scratch = Scratch()
        let first = try scratch.write(Self.exited(Fixture.events()), name: "first.ndjson")
        let second = try scratch.write(Array(Fixture.events().prefix(25)), name: "second.ndjson")
        let name = try scratch.advertiseSelf()
        let record = scratch.directory + "/run.ndjson"
        let reader = try TraceReader.open(file: first)
        let recording = try TraceRecorder(path: record)
        reader.recorder = recording
        let session = DashboardSession(source: .live(LiveFeed(reader: reader)))
        session.reattacher = Reattacher(
            match: .processName(name), directory: SocketDirectory(path: scratch.directory), lastPid: 4242,
            recordPath: record, connect: { _ throws(TraceError) in try TraceReader.open(file: second) })
        let clock = PollClock(step: 10_000_000)
        #expect(session.pollUntil(clock: clock) { session.isEnded })
        session.stopFeed()
        let recordings = [recording] + session.restartRecordings
        #expect(recordings.map(\.path) == [record, scratch.directory + "/run-2.ndjson"])
        let lines = NotifyTopRunner.recordingOutcomes(recordings)
        #expect(lines.count == 1)
        #expect(
            lines.last
                == "recorded \(recordings[0].bytesWritten) bytes to \(record), "
                + "\(recordings[1].bytesWritten) bytes to \(scratch.directory)/run-2.ndjson")
        #expect(recordings.allSatisfy { $0.bytesWritten > 0 })
    }
}
