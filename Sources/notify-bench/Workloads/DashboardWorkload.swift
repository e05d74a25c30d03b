import NotifyWire
import NotifyKit
import NotifySession
import NotifyTUI

/// The dashboard's frame cost: one full render of the Names and Observers views at 120×40 with
/// 10,000 live registrations, the bar a demanding user's table must clear.
struct DashboardWorkload: Workload {
    static let views: [(ViewID, String)] = [(.names, "Names"), (.observers, "Observers")]

    let profile: Profile

    static func rowName(_ title: String) -> String { "frame render, \(title) view, 10k registrations" }

    var rowNames: [String] { Self.views.map { Self.rowName($0.1) } }

    func run(_ options: BenchOptions) throws -> [Row] {
        let session = DashboardSession(source: .fixed(Self.events(registrations: 10_000)))
        let viewRowName: ((ViewID, String)) -> String = { Self.rowName($0.1) }
        return selectedRows(Self.views, named: viewRowName, options) { view, name in
            session.view = ViewState(view: view.0)
            _ = session.render(size: Size(width: 120, height: 40), glyphs: .unicode)
            var samples: [UInt64] = []
            for _ in 0..<(profile.name == "quick" ? 5 : 21) {
                let start = MonotonicClock.now()
                _ = session.render(size: Size(width: 120, height: 40), glyphs: .unicode)
                samples.append(MonotonicClock.now() - start)
            }
            samples.sort()
            var row = Row(name)
            let median = Double(samples[samples.count / 2])
            row.notifyKit = .nanoseconds(median)
            row.expect("≤ 5 ms", median <= 5_000_000)
            return row
        }
    }

    /// A stream with `registrations` block observers over 500 names, each posted once.
    static func events(registrations: Int) -> [TraceEvent] {
        var events: [TraceEvent] = []
        var seq: UInt64 = 0
        var time: UInt64 = 1_000_000_000
        func stamp() -> (UInt64, UInt64) {
            seq += 1
            time += 10_000
            return (seq, time)
        }
        events.append(
            .header(
                TraceHeader(
                    pid: 1, process: "bench", center: "bench", clockMono: time,
                    clockWall: 1_700_000_000_000_000_000, producer: "notify-bench")))
        let (s, t) = stamp()
        events.append(.thread(TraceThread(seq: s, timestamp: t, id: 1, systemID: 1, name: "main", isMain: true)))
        events.append(.callsite(TraceCallsite(id: 1, file: "Bench/Screen.swift", line: 12)))
        for index in 0..<registrations {
            let (s, t) = stamp()
            events.append(
                .registered(
                    TraceRegistration(
                        seq: s, timestamp: t, thread: 1, id: UInt64(index + 1), name: "bench.name.\(index % 500)",
                        kind: .block, observer: nil, object: nil, target: .posting, targetLabel: nil, callsite: 1,
                        preexisting: false, capturesObserverStrongly: false)))
        }
        for index in 0..<500 {
            let (s, t) = stamp()
            events.append(
                .posted(
                    TracePost(
                        seq: s, timestamp: t, thread: 1, postID: UInt64(index + 1), name: "bench.name.\(index)",
                        object: nil,
                        hasUserInfo: false, matched: registrations / 500, depth: 1, parentPostID: 0, callsite: 1)))
        }
        return events
    }
}
