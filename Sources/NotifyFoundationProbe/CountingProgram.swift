import Glibc

/// The counting mode's bpftrace program: ``ProbeProgram``'s, with posts and deliveries counted in
/// the kernel instead of printed, so the app pays each probe's trap but not its line.
///
/// Adds, removals, a center's end, an exec and the kernel's line counts stay lines (they are
/// rare). `_post`'s entry counts the post in `@P[NAME, center, metadata, ra, tid]`, and keeps its
/// key on the thread's stack of posts (`@cur[tid, depth]`; `@dp[tid]` holds the depth and, in its
/// low bit, whether the innermost post ran an observer: an outer post has, since an inner post
/// runs inside one of its observers); the delivery closure counts in
/// `@D[NAME, center, metadata, ra, tid, function, context, born]`, `born` the time of the
/// closure's latest add (`@born`, kept by each add's entry probe; 0 for one added before attach) under the running post's key (a queue
/// observer's block and an `AsyncMessage` observer's enqueue are counted where they are handed
/// over, on the posting thread); `_post`'s return counts a post that ran no observer in
/// `@U[NAME, center, metadata, ra, tid]`. NAME is nine numbers that hold the name whole up to
/// ``ProbeProgram/nameLimit`` bytes (``CountedName``), so no text the app chose reaches bpftrace's
/// map keys. A thread of the app that names itself prints `T tid`, so that notifytop reads its
/// name while it runs (a short-lived posting thread is gone by the next read). The maps only grow (never cleared, so no count is lost to a race); every
/// ``readMilliseconds`` they are printed between `K ns` and `k` (``CountingLine``), and bpftrace
/// prints them once more as it exits.
///
/// A post is counted only while the gate `@on` is open: from the start (``Gate/open``), or from
/// the moment notifytop opens it (``Gate/closed``), when the probes switch from event mode, and
/// until it closes it, when they switch to event mode (``Switch``). A post made while the gate is
/// closed is kept on the thread's stack unkeyed, so neither it nor its deliveries are counted; a
/// post counted keeps counting its deliveries after the gate closes. So every post is counted or
/// printed, never both, and so are its deliveries.
package struct CountingProgram: Sendable, Equatable {
    /// The program it changes; its checks (``ProbeProgram/isSafeFilePath(_:)``) hold here too.
    package var events: ProbeProgram
    /// Whether posts are counted from the start.
    package var gate: Gate
    /// notifytop's process, the only one whose ``Switch`` call moves the gate.
    package var switcher: Int32

    /// The gate's state when the program starts.
    package enum Gate: Sendable, Equatable {
        case open, closed
    }

    /// How often the maps are printed.
    package static let readMilliseconds = 250

    /// The most keys each map holds (bpftrace's `BPFTRACE_MAP_KEYS_MAX`): a map this full may have
    /// refused a count, which is then reported lost.
    package static let mapKeys = 65_536

    package init(events: ProbeProgram, gate: Gate = .open, switcher: Int32 = getpid()) {
        self.events = events
        self.gate = gate
        self.switcher = switcher
    }

    /// The symbols whose probes print a line per post or delivery: counted here instead (a
    /// sequence's delivery is its delivery closure's, counted for its name).
    static let hotSymbols: Set<String> = [
        FoundationSymbols.post, FoundationSymbols.delivery, FoundationSymbols.queueOperation,
        FoundationSymbols.asyncRun, FoundationSymbols.asyncRunResume, FoundationSymbols.sequenceCallback,
    ]

    /// The program's text, for `bpftrace -e`; refused as ``ProbeProgram/text()`` refuses.
    package func text() throws(FoundationAttachError) -> String {
        let kept = try events.text().split(separator: "\n", omittingEmptySubsequences: true).map(String.init).filter {
            line in
            !Self.hotSymbols.contains { line.contains(":\"\($0)\" ") }
        }
        let opened = kept.map {
            gate == .open && $0 == ProbeProgram.ready ? ProbeProgram.ready(opening: "@on = 1;") : $0
        }
        return (opened.map(Self.markingBirth) + hotProbes + [gateProbe, renameProbe, reading]).joined(separator: "\n")
            + "\n"
    }

    /// The gate moves when notifytop calls `getpriority` with a `which` of ``Switch/open`` or
    /// ``Switch/close`` and the watched pid as `who` (the call fails: no such `which`); the
    /// program then prints `S ns` (``CountingLine/switched(time:)``), the moment it moved.
    private var gateProbe: String {
        "tracepoint:syscalls:sys_enter_getpriority /pid == \(switcher) && args->who == \(events.pid)/ { "
            + "if (args->which == \(Switch.open.rawValue)) { @on = 1; printf(\"S %llu\\n\", nsecs); } "
            + "if (args->which == \(Switch.close.rawValue)) { @on = 0; printf(\"S %llu\\n\", nsecs); } }"
    }

    /// A thread that names itself (`pthread_setname_np`, `/proc/thread-self/comm`): its id, no text.
    private var renameProbe: String {
        "tracepoint:task:task_rename /pid == \(events.pid)/ { printf(\"T %d\\n\", args->pid); }"
    }

    /// notifytop's calls that move the gate of the counting program watching `pid`.
    package enum Switch: Int32, Sendable {
        case open = 0x4E54_0001
        case close = 0x4E54_0000

        /// Moves the gate of the counting program watching `pid`, now.
        package func call(watching pid: Int32) {
            _ = getpriority(__priority_which_t(UInt32(bitPattern: rawValue)), id_t(bitPattern: pid))
        }
    }

    /// The observer closure's registers at each add's entry.
    static let addedClosures: [(symbol: String, function: String, context: String)] = [
        (FoundationSymbols.addObserver, "cx", "r8"), (FoundationSymbols.addMainActorObserver, "si", "dx"),
        (FoundationSymbols.addAsyncObserver, "dx", "cx"),
    ]

    /// An add's entry also keeps, by its observer closure, the add's time (its line's): deliveries
    /// are counted under it, so each is tied to the registration its closure had when it ran.
    static func markingBirth(_ probe: String) -> String {
        guard probe.hasPrefix("uprobe:"),
            let added = addedClosures.first(where: { probe.contains(":\"\($0.symbol)\" ") })
        else { return probe }
        let kind = added.symbol == FoundationSymbols.addObserver ? ProbeLineKind.add : .typedAdd
        let counted = "@c[\(kind.rawValue), cpu]++;"
        guard let range = probe.firstRange(of: counted) else { return probe }
        var marked = probe
        marked.replaceSubrange(
            range, with: counted + " @born[reg(\"\(added.function)\"), reg(\"\(added.context)\")] = $t;")
        return marked
    }

    private var hotProbes: [String] {
        let filter = "/pid == \(events.pid)/"
        let library = events.library
        let post = FoundationSymbols.post
        let key = "$h, $w0, $w1, $w2, $w3, $w4, $w5, $w6, $w7, reg(\"r13\"), reg(\"r8\"), *(uint64 *)reg(\"sp\")"
        let onPost =
            "if (@on) { " + Self.nameWords(low: #"reg("di")"#, high: #"reg("si")"#)
            + " @P[\(key), tid]++; $d = (@dp[tid] >> 1) + 1; @dp[tid] = $d << 1; @cur[tid, $d] = (\(key)); } "
            // Not counted: on the stack unkeyed, marked as having run an observer (no unheard count).
            + "else { $d = (@dp[tid] >> 1) + 1; @dp[tid] = ($d << 1) | 1; delete(@cur[tid, $d]); }"
        let element = (0..<12).map { "$n.\($0)" }.joined(separator: ", ")
        // An `AsyncMessage` observer's delivery closure calls an enqueue that holds the observer's.
        let onDelivery =
            "$s = @dp[tid]; $d = $s >> 1; if ($d > 0) { $n = @cur[tid, $d]; if ($n.9 != 0) { if (($s & 1) == 0) { @dp[tid] = $s | 1; } "
            + "$b = *(uint64 *)(reg(\"r13\") + 32); "
            + "$f = *(uint64 *)(reg(\"r13\") + 24); $born = @born[$f, $b]; "
            + "if ($born == 0) { $born = @born[*(uint64 *)($b + 40), *(uint64 *)($b + 48)]; } "
            + "@D[\(element), tid, $f, $b, $born]++; } }"
        let onReturn =
            "$s = @dp[tid]; $d = $s >> 1; if ($d > 0) { if (($s & 1) == 0) { $n = @cur[tid, $d]; @U[\(element), tid]++; } "
            + "delete(@cur[tid, $d]); if ($d == 1) { delete(@dp[tid]); } else { @dp[tid] = (($d - 1) << 1) | 1; } }"
        return [
            "uprobe:\(library):\"\(post)\" \(filter) { \(onPost) }",
            "uprobe:\(library):\"\(FoundationSymbols.delivery)\" \(filter) { \(onDelivery) }",
            "uretprobe:\(library):\"\(post)\" \(filter) { \(onReturn) }",
        ]
    }

    private var reading: String {
        "interval:ms:\(Self.readMilliseconds) { printf(\"K %llu\\n\", nsecs); print(@P); print(@D); print(@U); "
            + "printf(\"k\\n\"); }"
    }

    /// Sets `$h` and `$w0`…`$w7` to the `String?` held in the words `low:high` (``CountedName``): a
    /// small string's high and low words, nothing for nil, else its byte count (at most 48 bits, so
    /// never read as a small string's) and its first bytes, those past the count or the limit zeroed.
    static func nameWords(low: String, high: String) -> String {
        var text = "$h = 0; $p = 0; " + (0..<8).map { "$w\($0) = 0;" }.joined(separator: " ")
        text += " $hi = \(high); $lo = \(low); if (($hi >> 61) & 1) { $h = $hi; $w0 = $lo; } "
        text += "else if ($hi != 0) { $h = $lo & 0xffffffffffff; $p = ($hi & 0xffffffffffffff) + 32; "
        for word in 0..<8 {
            let start = word * 8
            // The last word keeps at most 7 bytes: names are read up to the limit, as lines read them.
            let mask =
                word == 7
                ? "$r = $h < 63 ? $h - 56 : 7; $w7 = $w7 & ((1 << ($r * 8)) - 1);"
                : "if ($h < \(start + 8)) { $w\(word) = $w\(word) & ((1 << (($h - \(start)) * 8)) - 1); }"
            text += "if ($h > \(start)) { $w\(word) = *(uint64 *)($p + \(start)); \(mask) } "
        }
        return text + "}"
    }
}
