import NotifyModel
package import NotifyWire

/// Turns a trace into the Chrome Trace Event Format that ui.perfetto.dev and chrome://tracing
/// open, event by event, so a long recording never has to be held in memory.
///
/// - Each delivery is a complete slice (`"ph":"X"`) on its delivering thread's track (`tid` is the
///   trace's thread id), from the handler's start for its duration; each post is a slice on the
///   posting thread from the post to the end of its last delivery on that thread (at least 1 ns).
///   Slices on one track nest (``SliceNesting``): a slice that would partly overlap another is
///   moved and counted in ``Counts/adjusted``.
/// - A flow arrow joins a post to each of its deliveries, on any thread: its length is the wait,
///   which the delivery's `wait_ns` argument also gives. The arrow is bound to the slices
///   themselves (`"bind_id"`, the post id, with `"flow_out"` on the post and `"flow_in"` on each
///   delivery), not found by time as `"s"`/`"f"` events are: an inline handler starts at the very
///   nanosecond of its post, and an `"s"` there would bind to the handler instead of the post.
/// - Checkpoints, gaps and the leak findings (the same events folded through `InspectorState`,
///   at the time each finding opened) are instants on a track of their own, named `notifytop`.
/// - Thread and process names are metadata records. Times are the trace's monotonic clock in
///   microseconds, written exactly to the nanosecond.
///
/// ```swift
/// var writer = PerfettoTraceWriter()
/// for event in events { writer.add(event); write(writer.take()) }
/// writer.finish()
/// write(writer.take())
/// ```
package struct PerfettoTraceWriter {
    /// What the export holds.
    package struct Counts: Sendable, Equatable {
        /// Delivery slices.
        package var deliveries = 0
        /// Post slices.
        package var posts = 0
        /// Flow arrows from a post to a delivery.
        package var flows = 0
        /// Deliveries whose post the export does not hold (posted before the trace began): no arrow.
        package var deliveriesWithoutPost = 0
        /// Slices moved to nest properly on their track.
        package var adjusted = 0
        /// Leak findings written as instants.
        package var findings = 0
        /// Threads named.
        package var threads = 0
    }

    /// A post whose slice is still open: its end grows with each delivery on its own thread.
    private struct OpenPost {
        var post: TracePost
        var end: UInt64
    }

    private var output: [UInt8] = []
    private var wroteEvent = false
    private var pid: Int32 = 1
    private var model = InspectorState()
    private var tracks: [UInt64: SliceNesting] = [:]
    /// Per thread, its posts still open, outermost first.
    private var openPosts: [UInt64: [OpenPost]] = [:]
    /// Recent posts whose slices are written, for the arrows of deliveries that come after.
    private var recentPosts: Set<UInt64> = []
    private var postOrder: [UInt64] = []
    private var postOrderHead = 0
    /// Instants for the notifytop track, written once every thread id is known; bounded.
    private var notes: [(time: UInt64, name: String, args: String)] = []
    /// Every track's thread id, so the notifytop track takes one no thread has.
    private var threadIDs: Set<UInt64> = []
    private var highestThread: UInt64 = 0
    private var finished = false
    private var sawHeader = false

    /// Posts remembered for the arrows of late deliveries (an async message waiting in a mailbox).
    static let rememberedPosts = 65_536
    /// Checkpoint and gap instants kept for the notifytop track.
    static let maximumNotes = 100_000

    /// What was written so far.
    package private(set) var counts = Counts()

    /// Starts the document.
    package init() {
        output.append(contentsOf: #"{"displayTimeUnit":"ns","traceEvents":["#.utf8)
    }

    /// The bytes written since the last call.
    package mutating func take() -> [UInt8] {
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }

    /// Bytes waiting to be taken.
    package var pendingByteCount: Int { output.count }

    /// Adds one trace line.
    package mutating func add(_ event: TraceEvent) {
        precondition(!finished, "add after finish")
        model.apply(event)
        if let time = event.timestamp {
            if case .thread = event {} else { model.tick(now: time) }
        }
        switch event {
        case .header(let header):
            // A recording that followed a restart holds several processes: each has its own tracks.
            if sawHeader { startProcess() }
            sawHeader = true
            pid = header.pid > 0 ? header.pid : 1
            // A stream of several centers names them all, as the dashboard's process line does.
            let centers = model.centers?.joined(separator: ", ") ?? header.center
            metadata("process_name", tid: nil, name: header.process + " (" + centers + ")")
        case .thread(let thread):
            counts.threads += 1
            metadata("thread_name", tid: thread.id, name: thread.name)
        case .posted(let post): open(post)
        case .delivered(let delivery): deliver(delivery)
        case .checkpoint(let checkpoint):
            note(at: checkpoint.timestamp, "checkpoint " + checkpoint.label, args: "")
        case .gap(let gap):
            note(
                at: gap.timestamp, "lost \(gap.count) events",
                args: #","args":{"reason":"# + quoted(gap.reason.rawValue) + "}")
        case .end(let end):
            note(at: end.timestamp, "stream ended: " + end.reason.rawValue, args: "")
        default: break
        }
    }

    /// Closes every open slice, writes the notifytop track and ends the document.
    package mutating func finish() {
        guard !finished else { return }
        for thread in openPosts.keys.sorted() { closePosts(on: thread, atDepth: 0) }
        // The next id after the highest, wrapping past 2^64 − 1 to the first one free.
        var track = highestThread &+ 1
        while threadIDs.contains(track) { track &+= 1 }
        metadata("thread_name", tid: track, name: "notifytop")
        for note in notes { instant(tid: track, at: note.time, name: note.name, args: note.args) }
        for finding in model.findings.sorted(by: { $0.ordinal < $1.ordinal }) {
            var args = #","args":{"rule":"# + quoted(finding.rule.code)
            args += #","severity":"# + quoted("\(finding.severity)")
            args += #","summary":"# + quoted(finding.summary)
            args += #","fix":"# + quoted(finding.fix)
            args += #","occurrences":\#(finding.occurrences)"#
            if let resolved = finding.resolvedAt { args += #","resolved_us":"# + Self.microseconds(resolved) }
            args += "}"
            instant(
                tid: track, at: finding.firstSeen,
                name: finding.rule.code + " " + finding.rule.title + " " + Self.subject(of: finding),
                args: args)
            counts.findings += 1
        }
        output.append(contentsOf: "]}\n".utf8)
        finished = true
    }

    /// Ends the previous process's slices before a new header's.
    private mutating func startProcess() {
        for thread in openPosts.keys.sorted() { closePosts(on: thread, atDepth: 0) }
        tracks = [:]
        recentPosts = []
        postOrder = []
        postOrderHead = 0
    }

    // MARK: - Posts and deliveries

    private mutating func open(_ post: TracePost) {
        closePosts(on: post.thread, atDepth: post.depth)
        // Made inside a handler of another post than the thread's open one: that one is over.
        if let top = openPosts[post.thread]?.last, top.post.postID != post.parentPostID {
            closePosts(on: post.thread, atDepth: top.post.depth)
        }
        openPosts[post.thread, default: []].append(OpenPost(post: post, end: post.timestamp &+ 1))
    }

    private mutating func deliver(_ delivery: TraceDelivery) {
        // Posts made inside this handler ended before it did; so did the thread's posts at its
        // depth unless it is one of their inline deliveries (a thread runs one post at a depth).
        let inline =
            openPosts[delivery.thread]?.last { $0.post.depth == delivery.depth }?.post.postID == delivery.postID
        closePosts(on: delivery.thread, atDepth: inline ? min(delivery.depth, .max - 1) + 1 : delivery.depth)
        var hasPost = recentPosts.contains(delivery.postID)
        if let index = openPosts[delivery.postingThread]?.lastIndex(where: { $0.post.postID == delivery.postID }) {
            hasPost = true
            if delivery.thread == delivery.postingThread {
                openPosts[delivery.thread]![index].end = max(openPosts[delivery.thread]![index].end, delivery.timestamp)
            }
        }
        if hasPost { counts.flows += 1 } else { counts.deliveriesWithoutPost += 1 }
        let placed = place(on: delivery.thread, start: delivery.start, end: delivery.start &+ delivery.duration)
        var args = #","args":{"post":\#(delivery.postID),"registration":\#(delivery.registration)"#
        args += #","target":"# + quoted(delivery.target.rawValue)
        args += #","wait_ns":\#(delivery.wait),"depth":\#(delivery.depth),"posting_thread":\#(delivery.postingThread)"#
        if placed.adjusted { args += #","recorded_start_us":"# + Self.microseconds(delivery.start) }
        args += "}"
        let flow = hasPost ? #","bind_id":\#(delivery.postID),"flow_in":true"# : ""
        slice(tid: delivery.thread, category: "delivery", name: delivery.name, placed: placed, flow: flow, args: args)
        counts.deliveries += 1
    }

    /// What a finding is about, as a reader knows it: its name and call site, not the model's keys.
    static func subject(of finding: LeakFinding) -> String {
        let parts = [finding.evidence.name.map { "\"\($0)\"" }, finding.evidence.callsite.map { "at \($0)" }]
            .compactMap { $0 }
        return parts.isEmpty ? "\(finding.key.subject)" : parts.joined(separator: " ")
    }

    /// Writes and forgets the open posts of `thread` at `depth` or deeper, innermost first.
    private mutating func closePosts(on thread: UInt64, atDepth depth: Int) {
        while let last = openPosts[thread]?.last, last.post.depth >= depth {
            openPosts[thread]!.removeLast()
            let post = last.post
            let placed = place(on: thread, start: post.timestamp, end: last.end)
            var args = #","args":{"post":\#(post.postID),"matched":\#(post.matched),"depth":\#(post.depth)"#
            args += #","parent_post":\#(post.parentPostID)"#
            if let message = post.message { args += #","message":"# + quoted(message.rawValue) }
            if placed.adjusted { args += #","recorded_start_us":"# + Self.microseconds(post.timestamp) }
            args += "}"
            // An arrow starts only where one ends: a post no handler matched has none.
            let flow = post.matched > 0 ? #","bind_id":\#(post.postID),"flow_out":true"# : ""
            slice(tid: thread, category: "post", name: post.name, placed: placed, flow: flow, args: args)
            counts.posts += 1
            remember(post.postID)
        }
        if openPosts[thread]?.isEmpty == true { openPosts[thread] = nil }
    }

    private mutating func remember(_ postID: UInt64) {
        if postOrder.count < Self.rememberedPosts {
            postOrder.append(postID)
        } else {
            recentPosts.remove(postOrder[postOrderHead])
            postOrder[postOrderHead] = postID
            postOrderHead = (postOrderHead + 1) % Self.rememberedPosts
        }
        recentPosts.insert(postID)
    }

    private mutating func place(on thread: UInt64, start: UInt64, end: UInt64) -> (
        start: UInt64, end: UInt64, adjusted: Bool
    ) {
        let placed = tracks[thread, default: SliceNesting()].place(start: start, end: end)
        if placed.adjusted { counts.adjusted += 1 }
        return placed
    }

    // MARK: - Writing

    private mutating func note(at time: UInt64, _ name: String, args: String) {
        guard notes.count < Self.maximumNotes else { return }
        notes.append((time, name, args))
    }

    private mutating func slice(
        tid: UInt64, category: StaticString, name: String, placed: (start: UInt64, end: UInt64, adjusted: Bool),
        flow: String, args: String
    ) {
        let fields =
            #""ph":"X","cat":"\#(category)","name":"# + quoted(name) + #","dur":"#
            + Self.duration(placed.end - placed.start)
        event(fields + flow + args, tid: tid, at: placed.start)
    }

    private mutating func instant(tid: UInt64, at time: UInt64, name: String, args: String) {
        event(#""ph":"i","s":"t","cat":"notifytop","name":"# + quoted(name) + args, tid: tid, at: time)
    }

    private mutating func metadata(_ kind: StaticString, tid: UInt64?, name: String) {
        if let tid { useThread(tid) }
        let thread = tid.map { #","tid":\#($0)"# } ?? ""
        separate()
        output.append(contentsOf: #"{"ph":"M","name":"\#(kind)","pid":\#(pid)\#(thread),"args":{"name":"#.utf8)
        TraceEncoder.appendQuoted(name, into: &output)
        output.append(contentsOf: "}}".utf8)
    }

    private mutating func event(_ fields: String, tid: UInt64, at time: UInt64) {
        useThread(tid)
        separate()
        output.append(contentsOf: "{".utf8)
        output.append(contentsOf: fields.utf8)
        output.append(contentsOf: #","pid":\#(pid),"tid":\#(tid),"ts":"#.utf8)
        output.append(contentsOf: Self.microseconds(time).utf8)
        output.append(contentsOf: "}".utf8)
    }

    private mutating func useThread(_ tid: UInt64) {
        guard threadIDs.insert(tid).inserted else { return }
        highestThread = max(highestThread, tid)
    }

    private mutating func separate() {
        output.append(contentsOf: (wroteEvent ? ",\n" : "\n").utf8)
        wroteEvent = true
    }

    private func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        TraceEncoder.appendQuoted(text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Nanoseconds as microseconds with every digit: `1234567` → `1234.567`.
    static func microseconds(_ nanoseconds: UInt64) -> String {
        let fraction = nanoseconds % 1_000
        guard fraction != 0 else { return "\(nanoseconds / 1_000)" }
        let digits = String(fraction)
        return "\(nanoseconds / 1_000)." + String(repeating: "0", count: 3 - digits.count) + digits
    }

    /// A duration as ``microseconds(_:)`` writes it, nudged up by 0.0001 ns: Perfetto reads a
    /// slice's `dur` as a double times 1000, truncated, which turns `0.003` into 2 ns; the nudge
    /// keeps every whole nanosecond (a reader of the digits drops it).
    static func duration(_ nanoseconds: UInt64) -> String {
        let text = microseconds(nanoseconds)
        return nanoseconds % 1_000 == 0 ? text : text + "0001"
    }
}
