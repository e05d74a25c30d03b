import Foundation
import NotifyBenchmarks
import NotifyWire
import NotifyKit
import NotifySystem
import NotifyTraceApp
import NotifyTraceViewer

/// The trace stream's benchmarks: codec throughput on one core, what a live viewer costs the app's
/// posts, and the highest event rate a viewer receives with no gap.
struct TraceWorkload: Workload {
    static let encodeRow = "trace encode (events/s, one core)"
    static let decodeRow = "trace decode (events/s, one core)"
    static let viewerCostRow = "post with a viewer attached ÷ none, 1 observer"
    static let endToEndRow = "end to end: events/s a viewer receives with zero gaps"

    let profile: Profile

    var rowNames: [String] { [Self.encodeRow, Self.decodeRow, Self.viewerCostRow, Self.endToEndRow] }

    func run(_ options: BenchOptions) throws -> [Row] {
        var rows: [Row] = []
        let events = profile.name == "quick" ? 200_000 : 1_000_000
        if options.selects(Self.encodeRow) {
            progress(Self.encodeRow)
            let rate = WireBenchmark.measureEncode(eventCount: events, now: Self.threadCPUNow).eventsPerSecond
            rows.append(.rate(Self.encodeRow, rate, atLeast: 1_000_000))
        }
        if options.selects(Self.decodeRow) {
            progress(Self.decodeRow)
            let rate = WireBenchmark.measureDecode(eventCount: events, now: Self.threadCPUNow).eventsPerSecond
            rows.append(.rate(Self.decodeRow, rate, atLeast: 1_000_000))
        }
        if options.selects(Self.viewerCostRow) { rows.append(try viewerCost()) }
        if options.selects(Self.endToEndRow) { rows.append(try endToEnd()) }
        return rows
    }

    /// This thread's CPU time in nanoseconds: a codec's rate per second of one core, which other
    /// processes on a busy machine do not change.
    private static func threadCPUNow() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Posts per second on one thread, with and without one viewer draining the socket.
    private func viewerCost() throws -> Row {
        progress(Self.viewerCostRow)
        let posts = profile.name == "quick" ? 200_000 : 1_000_000
        let session = try ViewerSession()
        defer { session.stop() }
        let unattached = session.timePosts(posts)
        session.attachViewer()
        let attached = session.timePosts(posts)
        var row = Row(Self.viewerCostRow)
        let factor = attached / unattached
        row.notifyKit = .factorOf(factor, numerator: attached, denominator: unattached)
        row.expect("≤ 2×", factor <= 2)
        return row
    }

    /// Paces posts at rising rates for half a second each; the answer is the highest rate whose
    /// events all reached the viewer.
    private func endToEnd() throws -> Row {
        progress(Self.endToEndRow)
        let session = try ViewerSession()
        defer { session.stop() }
        session.attachViewer()
        var best = 0.0
        var rate = 25_000.0
        while rate <= 3_200_000 {
            let (delivered, lost) = session.pacedRun(postsPerSecond: rate, seconds: profile.name == "quick" ? 0.2 : 0.5)
            if lost > 0 || delivered == 0 { break }
            best = max(best, rate * 2)  // one post and one delivery event per post
            rate *= 2
        }
        var row = Row(Self.endToEndRow)
        row.notifyKit = .rate(best)
        row.target = "reported (events/s, highest zero-gap rate tried)"
        return row
    }
}

/// A center with one observer, an inspector on a private socket, and optionally a viewer that
/// drains everything on its own thread, counting events and gaps.
final class ViewerSession: @unchecked Sendable {  // counters are behind `lock`
    let center = NotifyCenter(label: "bench")
    let inspector: NotifyInspector
    private let directory: String
    private let token: NotifyToken
    private let lock = NSLock()
    private var received = 0
    private var lost: UInt64 = 0
    private var stopping = false
    private let name = Notification.Name("bench.trace")

    init() throws {
        directory = "/tmp/notify-bench-\(getpid())"
        inspector = try NotifyInspector.start(
            center: center, others: .none, directory: SocketDirectory(path: directory))
        token = center.addObserver(forName: name, object: nil, queue: nil) { _ in }
    }

    func attachViewer() {
        let reader = try? TraceReader.connect(socketPath: inspector.socketPath)
        guard let reader else { return }
        let box = UncheckedReader(reader)
        // Reads in batches, as notifytop's reader does.
        Thread.detachNewThread { [self] in
            var events: [TraceEvent] = []
            events.reserveCapacity(1_024)
            while true {
                events.removeAll(keepingCapacity: true)
                switch box.reader.next(appendingTo: &events, limit: 1_024, timeoutMilliseconds: 50) {
                case .events:
                    lock.lock()
                    for event in events {
                        if case .gap(let gap) = event { lost += gap.count }
                        if case .posted = event { received += 1 }
                        if case .delivered = event { received += 1 }
                    }
                    let stop = stopping
                    lock.unlock()
                    if stop { return }
                case .idle:
                    if lock.withLock({ stopping }) { return }
                case .ended:
                    return
                }
            }
        }
        while inspector.viewerCount < 1 { usleep(1_000) }
    }

    /// Nanoseconds per post over `posts` posts.
    func timePosts(_ posts: Int) -> Double {
        for _ in 0..<1_000 { center.post(name: name) }
        let start = MonotonicClock.now()
        for _ in 0..<posts { center.post(name: name) }
        return Double(MonotonicClock.now() - start) / Double(posts)
    }

    /// Posts at a steady rate, then waits for the viewer to catch up; returns the events it got and
    /// the events reported lost during this run.
    func pacedRun(postsPerSecond: Double, seconds: Double) -> (received: Int, lost: UInt64) {
        let (receivedBefore, lostBefore) = lock.withLock { (received, lost) }
        let total = Int(postsPerSecond * seconds)
        let interval = 1e9 / postsPerSecond
        let start = MonotonicClock.now()
        var posted = 0
        while posted < total {
            let due = Int(Double(MonotonicClock.now() - start) / interval)
            while posted < min(due + 1, total) {
                center.post(name: name)
                posted += 1
            }
        }
        let expected = receivedBefore + total * 2
        let deadline = MonotonicClock.now() + 3_000_000_000
        while MonotonicClock.now() < deadline {
            let (now, gaps) = lock.withLock { (received, lost) }
            if now >= expected || gaps > lostBefore { break }
            usleep(1_000)
        }
        let (after, lostAfter) = lock.withLock { (received, lost) }
        let missing = max(0, expected - after)
        return (after - receivedBefore, max(lostAfter - lostBefore, UInt64(missing)))
    }

    func stop() {
        lock.withLock { stopping = true }
        token.cancel()
        inspector.stop()
        rmdir(directory)
    }
}

/// Hands a reader to the one thread that drains it.
struct UncheckedReader: @unchecked Sendable {  // used by the one reader thread only
    let reader: TraceReader
    init(_ reader: TraceReader) { self.reader = reader }
}
