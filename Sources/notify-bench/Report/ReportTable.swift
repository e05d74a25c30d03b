/// Renders rows as the report table, as aligned plain text or as Markdown.
struct ReportTable {
    static let headers = [
        "benchmark", "NotifyKit", "Foundation", "floor", "ratio vs Foundation", "target", "pass/fail",
    ]
    /// Text columns are left-aligned, measurements right-aligned.
    static let rightAligned = [false, true, true, true, true, false, false]

    let rows: [Row]

    var cells: [[String]] {
        rows.map { row in
            [
                row.benchmark, row.notifyKit.text, row.foundation.text, row.floor.text,
                row.ratioToFoundation.map { ratio in
                    Cell.factor(ratio).text + (row.noise.map { " ±\(Cell.decimal($0 * 100, places: 0))%" } ?? "")
                } ?? "–",
                row.target,
                row.inconclusive ? "not judged" : row.passed.map { $0 ? "pass" : "FAIL" } ?? "–",
            ]
        }
    }

    func plainText() -> String {
        let body = cells
        let widths = Self.headers.indices.map { column in
            ([Self.headers[column]] + body.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ values: [String]) -> String {
            values.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - values[column].count)
                return Self.rightAligned[column] ? padding + values[column] : values[column] + padding
            }.joined(separator: " | ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-")
        return ([line(Self.headers), rule] + body.map(line)).joined(separator: "\n")
    }

    func markdown() -> String {
        func line(_ values: [String]) -> String {
            "| " + values.map { $0.replacingPipes() }.joined(separator: " | ") + " |"
        }
        let alignment = "|" + Self.rightAligned.map { $0 ? " ---: |" : " --- |" }.joined()
        return ([line(Self.headers), alignment] + cells.map(line)).joined(separator: "\n")
    }

    /// "N of M targets met", and which failed.
    var summary: String {
        let judged = rows.filter { $0.passed != nil }
        let failed = judged.filter { $0.passed == false }
        var text = "\(judged.count - failed.count) of \(judged.count) targets met"
        if !failed.isEmpty {
            text += "; failing: " + failed.map(\.benchmark).joined(separator: "; ")
        }
        let floorBound = rows.filter { $0.passed == false && $0.floorNote != nil }
        if !floorBound.isEmpty {
            text +=
                "\nmissed because of the floor measured in this run: "
                + floorBound.map { "\($0.benchmark): \($0.floorNote ?? "")" }.joined(separator: "; ")
        }
        let inconclusive = rows.filter(\.inconclusive)
        if !inconclusive.isEmpty {
            text +=
                "\nnot judged (other processes kept a CPU busy, two threads did not run at once, or a cost lay within"
                + " twice its standard error of its limit): "
                + inconclusive.map(\.benchmark).joined(separator: "; ")
        }
        return text
    }
}

extension ReportTable {
    /// How to read the table; printed under it.
    static func notes(markdown: Bool) -> String {
        let notes = [
            "Times are medians of the timed rounds; every handler adds 1 to its own counter, and every count is"
                + " checked after measuring.",
            "post: post(name:object: nil) to block observers (queue nil) among one registration on each of 1,000"
                + " other names. floor: the same handlers in one array behind one pthread mutex (lock, copy, unlock,"
                + " call each), with no other names. Closures kept in a plain [Handler] are stored reabstracted, so"
                + " each call also retains and releases a thunk context: that is part of this floor.",
            "add+remove: addObserver(forName:object:queue:using:) and removeObserver(token). floor: a pthread"
                + " mutex around one array with no names; an add allocates a registration (with one tick-counter"
                + " reading for its time) and a token, a removal finds it from the newest end and reads the counter"
                + " for the removal's time; the floor part rows time its pieces alone.",
            "ratio ±N%: the run's noise on the ratio, the interquartile range of each side's timed rounds ÷ its"
                + " median, added. Where the floor itself misses a speed-up target, the row fails and the summary"
                + " says so with the floor's own speed-up. --speed-gate holds NotifyKit to the target or to the"
                + " floor's speed-up ÷ the allowed slack (1.5× the floor's time for posts, 2× for add+remove),"
                + " whichever is lower, and fails the run only when the speed-up is below that by more than the noise.",
            "history cost: the always-on history measured per path, with the center's history on and off in"
                + " alternating rounds (median of the differences): post (per-thread counters), add and remove"
                + " (per-callsite count log), checkpoint (remembered for a late viewer).",
            "contention: the same posts per thread; speed-up = 2 × wall(1 thread) ÷ wall(2 threads). Handlers count"
                + " per thread, so only the center's own writes are shared. Trials during which another process took"
                + " a CPU are rerun; the machine check calls the same handlers with no center in between. With a"
                + " recorder attached, each thread writes its own ring, drained between trials (a drainer beside"
                + " two posting threads needs a third core: the row with a viewer is judged on 4 or more).",
            "memory: growth of mallinfo2() uordblks + hblkhd while registering, ÷ 100,000; names, handlers and the"
                + " reserved token array come before the baseline, so neither center pays for them.",
            "dashboard CPU / demo at its highest rate: notifytop's live path (reader thread, decoder, model,"
                + " 10 frames/s through ncurses on a 120×40 pseudo-terminal) in a child process with a session of"
                + " its own, attached over the Unix socket to the demo's stress scenario running here behind an"
                + " inspector: paced to 100k events/s, the row is the child's CPU time ÷ wall time over the measured"
                + " frames; unpaced, the events it lost (viewer-behind gaps). A trial in which the dashboard's"
                + " threads waited for a CPU over 5% of their time (another process busy) is tried again, up to 3.",
            "Targets: post ≥ 10× faster than Foundation with observers and ≤ 2× the floor at 100,"
                + " add+remove ≥ 5× faster (ratios against Foundation measured in the same run only), history ≤ 5 ns"
                + " or ≤ 3% per post, ≤ 20 ns per add or removal, ≤ 100 ns per checkpoint, 0 allocations per post, probe ≤ 2×, contention ≥ 1.5× (lock held < 1×),"
                + " memory per registration ≤ Foundation's; trace codec ≥ 1M events/s, viewer ≤ 2×; model fold"
                + " ≥ 2M events/s with flat memory; a dashboard frame with 10k registrations ≤ 5 ms; the dashboard"
                + " ≤ 10% of a core at 100k events/s and 10 frames/s, and no event lost at the demo's highest rate.",
            "typed messages: one message type declared against Foundation's protocols, posted to both centers;"
                + " MainActorMessage rows post(_:) from the main thread to observers registered with"
                + " addObserver(for:using:); AsyncMessage rows post a burst from one thread to one observer and stop"
                + " the clock when it has run for the last message.",
            "notifications(named:): a burst of 1k posts from one thread to one task iterating the sequence, its"
                + " buffer as large as the burst; the posts alone, and until the task has taken the last one.",
        ]
        return notes.map { (markdown ? "- " : "* ") + $0 }.joined(separator: "\n")
    }
}

extension String {
    fileprivate func replacingPipes() -> String {
        split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
    }
}
