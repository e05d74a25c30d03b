import ArgumentParser
import Foundation
import NotifyCommandLine
import NotifyModel
import NotifySession
import NotifySystem
import NotifyTestSupport
import NotifyTraceViewer
import NotifyWire
import Testing

/// A stream of posts named Cart… and Theme… from main and a worker, delivered inline.
private func script(posts: Int = 40) -> TraceScript {
    var script = TraceScript()
    script.register(1, "CartDidChange", site: 101)
    script.register(2, "ThemeDidChange", site: 102, thread: 2)
    for index in 0..<posts {
        script.advance(TraceScript.ms)
        let name = index.isMultiple(of: 2) ? "CartDidChange" : "ThemeDidChange"
        let thread: UInt64 = index.isMultiple(of: 2) ? 1 : 2
        script.postAndDeliver(
            name, to: [index.isMultiple(of: 2) ? 1 : 2], thread: thread, duration: UInt64(index) * 1_000)
    }
    return script
}

/// The header a stream opens with, then `events`.
private func stream(_ events: [TraceEvent]) -> [TraceEvent] {
    let header = TraceHeader(
        pid: 7, process: "app", center: "default", clockMono: TraceScript.start, clockWall: 1_700_000_000_000_000_000,
        producer: "test")
    return [.header(header)] + events
}

private func judge(_ query: String?, _ events: [TraceEvent]) throws -> [CaptureFilter.Verdict] {
    var filter = try CaptureFilter(query: query)
    return events.map { filter.judge($0) }
}

private func lines(_ path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
}

/// A capture of `events` read from a recording file, as a live stream.
private func capture(
    _ events: [TraceEvent], query: String? = nil, limit: Int? = nil, in directory: TemporaryDirectory
) throws -> (BoundedCapture.Outcome, String) {
    try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
    let source = directory.path + "/source.ndjson"
    var bytes: [UInt8] = []
    TraceEncoder.encode(stream(events), into: &bytes)
    try Data(bytes).write(to: URL(fileURLWithPath: source))
    let out = directory.path + "/capture.ndjson"
    let feed = LiveFeed(reader: try TraceReader.open(file: source))
    defer { feed.stop() }
    let recording = try TraceRecorder(path: out)
    var bounded = BoundedCapture(filter: try CaptureFilter(query: query), limit: limit, timeout: nil)
    let outcome = bounded.run(feed, into: recording)
    return (outcome, out)
}

struct BoundedCaptureTests {
    @Test("--match keeps the events the query matches by name, kind, thread and duration; definitions always")
    func matchPicksEvents() throws {
        let events = script().events
        let byName = try judge("name~^cart", events)
        for (event, verdict) in zip(events, byName) {
            switch event {
            case .posted(let post): #expect(verdict == (post.name == "CartDidChange" ? .count : .skip))
            case .delivered(let delivery): #expect(verdict == (delivery.name == "CartDidChange" ? .count : .skip))
            case .registered(let registration):
                #expect(verdict == (registration.name == "CartDidChange" ? .count : .skip))
            case .thread, .callsite: #expect(verdict == .keep)
            default: break
            }
        }
        let slow = try judge("kind=deliver dur>30us", events)
        let kept = zip(events, slow).filter { $0.1 == .count }.map(\.0)
        #expect(kept.count == 9)
        #expect(kept.allSatisfy { if case .delivered(let delivery) = $0 { delivery.duration > 30_000 } else { false } })
        let worker = try judge("thread=worker kind=post", events)
        #expect(
            zip(events, worker).filter { $0.1 == .count }.allSatisfy {
                if case .posted(let post) = $0.0 { post.thread == 2 } else { false }
            })
        #expect(worker.filter { $0 == .count }.count == 20)
        #expect(try judge("site=File.swift:101", events).filter { $0 == .count }.count == 1)
        #expect(throws: (any Error).self) { try CaptureFilter(query: "dur>soon") }
    }

    @Test("a removal or dropped token follows the registration it ends; without --match everything counts")
    func removalsFollowTheirRegistration() throws {
        var script = script(posts: 0)
        script.dropToken(1)
        script.remove(1)
        script.remove(2)
        let verdicts = try judge("name=CartDidChange", script.events)
        let endings = zip(script.events, verdicts).compactMap { event, verdict -> CaptureFilter.Verdict? in
            switch event {
            case .removed, .tokenDropped: verdict
            default: nil
            }
        }
        #expect(endings == [.count, .count, .skip])
        #expect(try judge(nil, script.events).filter { $0 == .skip }.isEmpty)
    }

    @Test("merges into a post and a filter object's death count as seen as they count as recorded")
    func mergesAndDeathsAreSeenAndRecorded() throws {
        var events = script(posts: 2)
        let post = events.post("CartDidChange", matched: 1)
        events.merge(into: post, count: 3, site: 103, enqueuedAt: events.time)
        events.objectDead(1, object: nil, aliveAt: events.time)
        let (outcome, _) = try capture(events.events, in: TemporaryDirectory("capture-merges"))
        // 2 registrations, 2 posts and their deliveries, a post, a merge and a death.
        #expect(outcome.recorded == 9)
        #expect(outcome.seen == 9)
    }

    @Test("--limit N records N events, ends the file with recording-stopped, and the file replays without losses")
    func limitEndsTheRecording() throws {
        let directory = TemporaryDirectory("capture-limit")
        var full = script()
        full.end()
        let (outcome, path) = try capture(full.events, query: "name~^cart", limit: 10, in: directory)
        #expect(outcome.stop == .limit && outcome.recorded == 10)
        let last = try #require(try lines(path).last)
        #expect(last.contains(#""k":"end""#) && last.contains(#""reason":"recording-stopped""#))
        let fold = try RecordingFold(path: path)
        #expect(fold.model.totals.posts + fold.model.totals.deliveries + fold.model.totals.registrations == 10)
        #expect(fold.model.eventsLost == 0 && fold.skippedLines == nil)
        #expect(fold.model.names.contains { $0.name == "CartDidChange" })
        #expect(!fold.model.names.contains { $0.name == "ThemeDidChange" })
    }

    @Test("a stream that ends first keeps its own end line; a loss in the stream stays a loss in the file")
    func streamEndAndRealLoss() throws {
        let directory = TemporaryDirectory("capture-end")
        var lossy = script(posts: 6)
        lossy.gap(0)  // uses a number, counts nothing: the hole below is the stream's own
        lossy.postAndDeliver("CartDidChange", to: [1])
        lossy.end()
        var events = lossy.events
        // Drop the gap line: its number becomes a hole no gap accounts for.
        events.removeAll { if case .gap = $0 { true } else { false } }
        let (outcome, path) = try capture(events, query: "name=CartDidChange", in: directory)
        #expect(outcome.stop == .streamEnded && outcome.recorded == 9)
        let text = try lines(path)
        let ends = text.filter { $0.contains(#""k":"end""#) }
        #expect(ends.count == 1 && ends[0].contains(#""reason":"process-exit""#))
        // The reader reports the hole it saw as a gap line, which the file keeps.
        #expect(text.last?.contains(#""reason":"unaccounted""#) == true)
        #expect(try RecordingFold(path: path).model.eventsLost == 1)
    }

    @Test("--timeout ends a stream that goes on, with recording-stopped")
    func timeoutEndsTheRecording() throws {
        let directory = TemporaryDirectory("capture-timeout")
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let socketPath = directory.path + "/s.sock"
        let listener = try UnixSocket.listen(at: socketPath)
        defer { listener.close() }
        let feed = LiveFeed(reader: try TraceReader.connect(socketPath: socketPath))
        defer { feed.stop() }
        let producer = try #require(acceptedConnection(on: listener))
        defer { producer.close() }
        var bytes: [UInt8] = []
        TraceEncoder.encode(stream(script(posts: 4).events), into: &bytes)
        let sent = bytes.withUnsafeBytes { producer.writeSome($0) }
        #expect(sent == bytes.count)
        let out = directory.path + "/capture.ndjson"
        var bounded = BoundedCapture(filter: try CaptureFilter(query: nil), limit: nil, timeout: 200 * TraceScript.ms)
        // A clock that moves 1 ms a pass: the 200 passes take about a second of 5 ms naps.
        var clock: UInt64 = 0
        let recording = try TraceRecorder(path: out)
        let outcome = bounded.run(
            feed, into: recording,
            now: {
                clock += TraceScript.ms
                return clock
            })
        #expect(outcome.stop == .timeout && outcome.recorded == 10)
        #expect(try lines(out).last?.contains(#""reason":"recording-stopped""#) == true)
        #expect(
            BoundedCapture.summary(outcome, path: out, limit: nil, timeout: "200ms")
                == "recorded 10 of 10 events to \(out) (--timeout 200ms passed)")
    }

    @Test("--match, --limit and --timeout need --record; bad values are one-line errors")
    func optionsAreValidated() throws {
        #expect(throws: (any Error).self) { try NotifyTopOptions.parse(["--demo", "--limit", "5"]) }
        #expect(throws: (any Error).self) { try NotifyTopOptions.parse(["--demo", "--record", "x", "--limit", "0"]) }
        #expect(throws: (any Error).self) {
            try NotifyTopOptions.parse(["--demo", "--record", "x", "--timeout", "0s"])
        }
        #expect(throws: (any Error).self) {
            try NotifyTopOptions.parse(["--demo", "--record", "x", "--match", "dur>x"])
        }
        #expect(throws: (any Error).self) {
            try NotifyTopOptions.parse(["--replay", "r", "--record", "x", "--match", "a"])
        }
        let options = try NotifyTopOptions.parse(["--demo", "--record", "x", "--match", "cart", "--timeout", "30s"])
        #expect(options.isBoundedCapture && options.timeout?.nanoseconds == 30 * TraceScript.second)
        #expect(!(try NotifyTopOptions.parse(["--demo", "--record", "x"])).isBoundedCapture)
    }
}
