import Foundation
import NotifyModel
import NotifySession
import NotifyTUI
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyWire
import Testing

/// A trace written line by line: posts with their parent, deliveries with their own start, so a
/// test lays out exactly the nesting and the hand-offs it means.
private struct Lines {
    var events: [TraceEvent] = [
        .header(
            TraceHeader(
                pid: 4242, process: "app", center: "default", clockMono: 1_000_000_000,
                clockWall: 1_700_000_000_000_000_000, producer: "test"))
    ]
    private var seq: UInt64 = 0

    private mutating func next() -> UInt64 {
        seq += 1
        return seq
    }

    /// A second process's stream in the same file, as a recording that followed a restart holds.
    mutating func restart(pid: Int32, centers: [String]? = nil) {
        seq = 0
        events.append(
            .header(
                TraceHeader(
                    pid: pid, process: "app", center: centers?.first ?? "default", clockMono: 1_000_000_000,
                    clockWall: 1_700_000_000_000_000_000, producer: "test", centers: centers)))
    }

    mutating func thread(_ id: UInt64, _ name: String, at time: UInt64 = 1_000_000_000) {
        events.append(
            .thread(
                TraceThread(
                    seq: next(), timestamp: time, id: id, systemID: Int32(100 + id), name: name, isMain: id == 1)))
    }

    mutating func register(_ id: UInt64, _ name: String, at time: UInt64 = 1_000_000_000) {
        events.append(
            .registered(
                TraceRegistration(
                    seq: next(), timestamp: time, thread: 1, id: id, name: name, kind: .block, observer: nil,
                    object: nil,
                    target: .posting, targetLabel: nil, callsite: 1, preexisting: false,
                    capturesObserverStrongly: false, mainThreadOnly: false)))
    }

    mutating func post(
        _ id: UInt64, _ name: String, thread: UInt64, at time: UInt64, depth: Int = 1, parent: UInt64 = 0,
        matched: Int = 1
    ) {
        events.append(
            .posted(
                TracePost(
                    seq: next(), timestamp: time, thread: thread, postID: id, name: name, object: nil,
                    hasUserInfo: false,
                    matched: matched, depth: depth, parentPostID: parent, callsite: 1)))
    }

    mutating func deliver(
        _ post: UInt64, _ name: String, thread: UInt64, postingThread: UInt64, start: UInt64, duration: UInt64,
        wait: UInt64 = 0, depth: Int = 1, registration: UInt64 = 1
    ) {
        events.append(
            .delivered(
                TraceDelivery(
                    seq: next(), timestamp: start + duration, thread: thread, postID: post, registration: registration,
                    name: name, postingThread: postingThread, target: wait > 0 ? .dispatchQueue : .posting,
                    start: start,
                    duration: duration, wait: wait, depth: depth)))
    }

    mutating func checkpoint(_ label: String, at time: UInt64) {
        events.append(.checkpoint(TraceCheckpoint(seq: next(), timestamp: time, thread: 1, label: label, callsite: 1)))
    }
}

/// One slice or instant of the exported file, times in nanoseconds.
private struct Exported {
    var phase: String
    var pid: Int
    var name: String
    var category: String
    var tid: UInt64
    var start: UInt64
    var end: UInt64
    var bindID: UInt64?
    var flowIn: Bool
    var flowOut: Bool
    var args: [String: Any]
}

/// Reads an export as a JSON consumer does, and checks what every export must be.
private struct Timeline {
    var document: [String: Any]
    var events: [Exported] = []
    var metadata: [[String: Any]] = []

    init(_ bytes: [UInt8]) throws {
        document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(document["displayTimeUnit"] as? String == "ns")
        let list = try #require(document["traceEvents"] as? [[String: Any]])
        func nanoseconds(_ value: Any?) -> UInt64 { UInt64(((value as? Double) ?? 0) * 1_000 + 0.5) }
        for item in list {
            let phase = try #require(item["ph"] as? String)
            if phase == "M" {
                metadata.append(item)
                continue
            }
            let start = nanoseconds(item["ts"])
            events.append(
                Exported(
                    phase: phase, pid: item["pid"] as? Int ?? 0, name: item["name"] as? String ?? "",
                    category: item["cat"] as? String ?? "",
                    tid: (item["tid"] as? NSNumber)?.uint64Value ?? 0, start: start,
                    // What Perfetto reads: the digits of `dur` as a double times 1000, truncated.
                    end: start + UInt64(((item["dur"] as? Double) ?? 0) * 1_000),
                    bindID: (item["bind_id"] as? NSNumber)?.uint64Value, flowIn: item["flow_in"] as? Bool ?? false,
                    flowOut: item["flow_out"] as? Bool ?? false, args: item["args"] as? [String: Any] ?? [:]))
        }
    }

    var slices: [Exported] { events.filter { $0.phase == "X" } }

    /// Slices on each track are disjoint or nested: walked by start (longest first at a tie)
    /// with a stack of the slices still open, none may end after the one around it.
    func partialOverlaps() -> Int {
        var overlaps = 0
        for track in Set(slices.map(\.tid)) {
            let ordered = slices.filter { $0.tid == track }.sorted { ($0.start, $1.end) < ($1.start, $0.end) }
            var open: [Exported] = []
            for slice in ordered {
                while let top = open.last, top.end <= slice.start { open.removeLast() }
                if let top = open.last, slice.end > top.end { overlaps += 1 }
                open.append(slice)
            }
        }
        return overlaps
    }

    /// The innermost slice on `tid` around `time`.
    func slice(on tid: UInt64, at time: UInt64) -> Exported? {
        slices.filter { $0.tid == tid && $0.start <= time && time <= $0.end }.min {
            $0.end - $0.start < $1.end - $1.start
        }
    }
}

private func export(_ events: [TraceEvent]) throws -> (Timeline, PerfettoTraceWriter.Counts) {
    var writer = PerfettoTraceWriter()
    var bytes: [UInt8] = []
    for event in events {
        writer.add(event)
        bytes += writer.take()
    }
    writer.finish()
    bytes += writer.take()
    return (try Timeline(bytes), writer.counts)
}

struct PerfettoExportTests {
    static let ms: UInt64 = 1_000_000
    static let t0: UInt64 = 1_000_000_000

    /// Main posts A (two inline handlers, the second posting B inside it) and hands A to a worker
    /// queue that runs it 5 ms later; a 300 ms handler makes a slow-handler finding.
    static func scenario() -> [TraceEvent] {
        var lines = Lines()
        lines.thread(1, "main")
        lines.thread(2, "worker")
        lines.register(1, "A")
        lines.post(1, "A", thread: 1, at: t0 + 1 * ms)
        lines.deliver(1, "A", thread: 1, postingThread: 1, start: t0 + 1 * ms, duration: 1 * ms)
        lines.post(2, "B", thread: 1, at: t0 + 3 * ms, depth: 2, parent: 1)
        lines.deliver(2, "B", thread: 1, postingThread: 1, start: t0 + 3 * ms + 100, duration: 500_000, depth: 2)
        lines.deliver(1, "A", thread: 1, postingThread: 1, start: t0 + 2 * ms, duration: 2 * ms, registration: 2)
        lines.deliver(
            1, "A", thread: 2, postingThread: 1, start: t0 + 9 * ms, duration: 1_001, wait: 5 * ms, registration: 3)
        lines.checkpoint("screen closed", at: t0 + 10 * ms)
        lines.post(3, "Slow", thread: 1, at: t0 + 20 * ms)
        lines.deliver(3, "Slow", thread: 1, postingThread: 1, start: t0 + 20 * ms + 7, duration: 300 * ms)
        return lines.events
    }

    @Test("every delivery is a slice on its thread at its start and duration; slices nest; counts match the trace")
    func slicesMatchTheTrace() throws {
        let events = Self.scenario()
        let (timeline, counts) = try export(events)
        let deliveries = events.compactMap { if case .delivered(let delivery) = $0 { delivery } else { nil } }
        let posts = events.compactMap { if case .posted(let post) = $0 { post } else { nil } }
        #expect(counts.deliveries == deliveries.count && counts.posts == posts.count && counts.adjusted == 0)
        #expect(timeline.slices.filter { $0.category == "delivery" }.count == deliveries.count)
        for delivery in deliveries {
            let matching = timeline.slices.filter {
                $0.category == "delivery" && ($0.args["post"] as? NSNumber)?.uint64Value == delivery.postID
                    && $0.tid == delivery.thread && $0.start == delivery.start
                    && $0.end == delivery.start + delivery.duration
                    && ($0.args["wait_ns"] as? NSNumber)?.uint64Value == delivery.wait
            }
            #expect(matching.count == 1, "delivery \(delivery.seq)")
        }
        for post in posts {
            let slice = try #require(
                timeline.slices.first {
                    $0.category == "post" && ($0.args["post"] as? NSNumber)?.uint64Value == post.postID
                })
            #expect(slice.tid == post.thread && slice.start == post.timestamp && slice.name == post.name)
        }
        // A spans its two inline handlers; B sits inside the second one.
        let a = try #require(timeline.slices.first { $0.category == "post" && $0.name == "A" })
        #expect(a.end == Self.t0 + 4 * Self.ms)
        #expect(timeline.slice(on: 1, at: Self.t0 + 3 * Self.ms)?.name == "B")
        #expect(timeline.partialOverlaps() == 0)
    }

    @Test("each delivery has one arrow: from its post's slice to the delivery's, across threads, ids unique per post")
    func arrowsJoinPostsToDeliveries() throws {
        let events = Self.scenario()
        let (timeline, counts) = try export(events)
        let deliveries = events.compactMap { if case .delivered(let delivery) = $0 { delivery } else { nil } }
        let sources = timeline.slices.filter { $0.flowOut }
        let targets = timeline.slices.filter { $0.flowIn }
        #expect(targets.count == deliveries.count && counts.flows == deliveries.count)
        #expect(Set(sources.compactMap(\.bindID)).count == sources.count)
        #expect(sources.allSatisfy { $0.category == "post" } && targets.allSatisfy { $0.category == "delivery" })
        for delivery in deliveries {
            let to = try #require(targets.first { $0.tid == delivery.thread && $0.start == delivery.start })
            let from = try #require(sources.first { $0.bindID == to.bindID })
            #expect((from.args["post"] as? NSNumber)?.uint64Value == delivery.postID)
            #expect(from.tid == delivery.postingThread && from.start <= to.start)
        }
        // The worker's arrow spans the queue wait and more: from the post at 1 ms to the start at 9 ms.
        let worker = try #require(targets.first { $0.tid == 2 })
        let origin = try #require(sources.first { $0.bindID == worker.bindID })
        #expect(worker.start - origin.start == 8 * Self.ms)
    }

    @Test("every arrow that starts ends: a post no handler matched starts none")
    func noArrowWithoutDelivery() throws {
        var lines = Lines()
        lines.thread(1, "main")
        lines.post(1, "Heard", thread: 1, at: Self.t0)
        lines.deliver(1, "Heard", thread: 1, postingThread: 1, start: Self.t0, duration: 10)
        lines.post(2, "Unheard", thread: 1, at: Self.t0 + Self.ms, matched: 0)
        let (timeline, _) = try export(lines.events)
        let starts = Set(timeline.slices.filter(\.flowOut).compactMap(\.bindID))
        let ends = Set(timeline.slices.filter(\.flowIn).compactMap(\.bindID))
        #expect(starts == ends)
        #expect(starts == [1])
    }

    @Test("threads and the process are named; findings and checkpoints are instants on the notifytop track")
    func namesAndFindings() throws {
        let events = Self.scenario()
        let (timeline, counts) = try export(events)
        var model = InspectorState()
        for event in events {
            model.apply(event)
            if let time = event.timestamp { model.tick(now: time) }
        }
        #expect(!model.findings.isEmpty)
        let names = Dictionary(
            timeline.metadata.filter { $0["name"] as? String == "thread_name" }.map {
                (($0["tid"] as? NSNumber)?.uint64Value ?? 0, ($0["args"] as? [String: Any])?["name"] as? String ?? "")
            }, uniquingKeysWith: { $1 })
        #expect(names == [1: "main", 2: "worker", 3: "notifytop"])
        #expect(timeline.metadata.contains { $0["name"] as? String == "process_name" && $0["pid"] as? Int == 4242 })
        let instants = timeline.events.filter { $0.phase == "i" }
        #expect(instants.allSatisfy { $0.tid == 3 })
        #expect(instants.filter { $0.args["rule"] != nil }.count == model.findings.count)
        #expect(counts.findings == model.findings.count)
        for finding in model.findings {
            #expect(
                instants.contains { $0.args["rule"] as? String == finding.rule.code && $0.start == finding.firstSeen })
        }
        // Findings are named as a reader knows them (names, call sites), never by the model's keys.
        #expect(!instants.contains { $0.name.contains("site#") || $0.name.contains("obj#") })
        #expect(instants.contains { $0.name == "checkpoint screen closed" && $0.start == Self.t0 + 10 * Self.ms })
    }

    @Test("names with quotes, backslashes and control characters are escaped and read back unchanged")
    func hostileNames() throws {
        let hostile = "x\"},{\"ph\":\"X\\\n\t\u{1}\u{7f}通知"
        var lines = Lines()
        lines.thread(1, hostile)
        lines.post(1, hostile, thread: 1, at: Self.t0)
        lines.deliver(1, hostile, thread: 1, postingThread: 1, start: Self.t0, duration: 10)
        let (timeline, _) = try export(lines.events)
        #expect(timeline.slices.count == 2 && timeline.slices.allSatisfy { $0.name == hostile })
        #expect(timeline.metadata.contains { ($0["args"] as? [String: Any])?["name"] as? String == hostile })
    }

    @Test("handlers that partly overlap on one thread are moved to nest, counted, and keep their recorded start")
    func partialOverlapIsAdjusted() throws {
        var lines = Lines()
        lines.thread(1, "main")
        lines.deliver(1, "first", thread: 1, postingThread: 9, start: Self.t0, duration: 10 * Self.ms, registration: 1)
        lines.deliver(2, "second", thread: 1, postingThread: 9, start: Self.t0 + 5 * Self.ms, duration: 10 * Self.ms)
        // Out of end order: ends before "second" did, inside it.
        lines.deliver(3, "late", thread: 1, postingThread: 9, start: Self.t0 + 11 * Self.ms, duration: 1 * Self.ms)
        let (timeline, counts) = try export(lines.events)
        #expect(counts.adjusted == 2 && counts.deliveriesWithoutPost == 3)
        #expect(timeline.partialOverlaps() == 0)
        let second = try #require(timeline.slices.first { $0.name == "second" })
        #expect(second.start == Self.t0 + 10 * Self.ms && second.end == Self.t0 + 15 * Self.ms)
        #expect(second.args["recorded_start_us"] as? Double == 1_005_000)
    }

    @Test("export REC --perfetto OUT creates OUT from a recording, never overwrites a file or follows a link")
    func fileIsCreatedExclusively() throws {
        let directory = TemporaryDirectory("perfetto")
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let recording = directory.path + "/trace.ndjson"
        var bytes: [UInt8] = []
        TraceEncoder.encode(Self.scenario(), into: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: recording))
        let out = directory.path + "/out.json"
        let (counts, skipped) = try PerfettoExport.export(recording: recording, to: out)
        #expect(counts.deliveries == 5 && skipped == nil)
        let written = try Timeline(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
        #expect(written.partialOverlaps() == 0 && written.slices.count == 8)

        let existing = directory.path + "/existing.json"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: existing))
        #expect(throws: PerfettoExport.Failure.self) { try PerfettoExport.export(recording: recording, to: existing) }
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep")
        let link = directory.path + "/link.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.path + "/target.json")
        do {
            _ = try PerfettoExport.export(recording: recording, to: link)
            Issue.record("a link was followed")
        } catch {
            #expect(error.isOutput && error.description.contains("exists"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/target.json"))
        do {
            _ = try PerfettoExport.export(recording: existing, to: directory.path + "/other.json")
            Issue.record("a file that is not a trace was exported")
        } catch {
            #expect(!error.isOutput)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/other.json"))
    }

    @Test("export perfetto in the palette saves the session's events; Ctrl-S keeps saving the table")
    func paletteExport() throws {
        let directory = TemporaryDirectory("perfetto-palette")
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let session = DashboardSession(source: .fixed(Self.scenario()))
        session.exportDirectory = directory.path
        var keys: [Key] = [.char(":")] + "export perfetto".map { Key.character($0) }
        keys += [.enter, .control("s")]
        let terminal = InMemoryTerminal(size: Size(width: 100, height: 30), keys: keys)
        _ = session.run(on: terminal, maxFrames: keys.count + 1)
        let path = directory.path + "/notifytop-timeline-1.json"
        let timeline = try Timeline(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(timeline.slices.filter { $0.category == "delivery" }.count == 5)
        #expect(FileManager.default.fileExists(atPath: directory.path + "/notifytop-names-1.txt"))
        #expect(session.actions.entries.contains { $0.text.contains("every event since the stream began") })
    }

    @Test("a track keeps a bounded number of slices, yet a slice around all of them or crossing old ones still nests")
    func boundedTrack() {
        var track = SliceNesting()
        let count = UInt64(3 * SliceNesting.maximumRoots)
        for index in 0..<count {
            #expect(track.place(start: index * 10, end: index * 10 + 5).adjusted == false)
        }
        // Starts inside a slice the track no longer holds: moved past everything dropped.
        let crossing = track.place(start: 12, end: count * 10)
        #expect(crossing.adjusted && crossing.start == 10 * UInt64(SliceNesting.maximumRoots - 1) + 5)
        // Around everything, the dropped ones included: nothing to move.
        let around = track.place(start: 0, end: count * 10 + 1)
        #expect(around == (0, count * 10 + 1, false))
    }

    @Test("a recording that followed a restart gives each process its own slices; the first one's open post closes")
    func restartedProcess() throws {
        var lines = Lines()
        lines.thread(1, "main")
        lines.post(1, "Before", thread: 1, at: Self.t0 + 50 * Self.ms)
        lines.deliver(1, "Before", thread: 1, postingThread: 1, start: Self.t0 + 50 * Self.ms, duration: Self.ms)
        lines.restart(pid: 5000)
        lines.thread(1, "main")
        // The new process's clock reads earlier: its thread 1 is another track.
        lines.post(1, "After", thread: 1, at: Self.t0 + 10 * Self.ms)
        lines.deliver(1, "After", thread: 1, postingThread: 1, start: Self.t0 + 10 * Self.ms, duration: Self.ms)
        let (timeline, counts) = try export(lines.events)
        #expect(counts.adjusted == 0 && counts.flows == 2 && counts.posts == 2)
        #expect(timeline.slices.filter { $0.name == "Before" }.allSatisfy { $0.pid == 4242 })
        #expect(timeline.slices.filter { $0.name == "After" }.allSatisfy { $0.pid == 5000 })
        #expect(timeline.slices.count == 4)
    }

    @Test("the process is named with its center, or with every center when the stream carries several")
    func processNameSaysTheCenters() throws {
        var lines = Lines()
        lines.thread(1, "main")
        lines.restart(pid: 5000, centers: ["default", "sync"])
        lines.thread(1, "main")
        let (timeline, _) = try export(lines.events)
        let names = timeline.metadata.filter { $0["name"] as? String == "process_name" }.map {
            ($0["pid"] as? Int ?? 0, ($0["args"] as? [String: Any])?["name"] as? String ?? "")
        }
        #expect(names.map(\.0) == [4242, 5000])
        #expect(names.map(\.1) == ["app (default)", "app (default, sync)"])
    }
}
