import Glibc

/// The bpftrace program that watches one process's Foundation `NotificationCenter`: one output
/// line per add, post, removal and delivery, parsed by ``ProbeLine``.
///
/// Lines (numbers in hex unless said): `A tid ns center object type function context ra ra2 ra3
/// NAME` (an add), `a tid ns token filter` (its return: the token's number and object filter's
/// identifier, 0 for none), `P tid ns center object type ra ra2 ra3 NAME` (a post), `R tid ns center
/// token filter ra ra2 ra3 NAME` (a removal: the token's number, filter and name), `D tid ns context function
/// closureContext` and `d tid ns` (a delivery's start and end), with `tid` and `ns` in decimal;
/// with ``DeliveryEnd/nextDeliveryOrPostReturn`` there is no `d` but `p tid ns` (a post returned).
/// NAME is `S word word` (a small string held in its two words), `L count text` (a large
/// string's length and bytes, at most ``nameLimit``: native strings end in a NUL) or `N` (no
/// name). `ra` is the probed function's return address, `ra2` and `ra3` its caller's and that one's (read
/// through the frame pointers), for the call site: a typed message's post and a token's removal
/// pass through two of Foundation's frames. `READY` comes once
/// every probe is attached; `X tid ns` when the process execs (another program: the view ends);
/// `E tid ns center` when a center deallocates. Each probe counts its lines in the kernel
/// (`@c[kind, cpu]`, ``ProbeLineKind``; its own CPU's key, so no count is lost to a race), read
/// before its time: `C 0 ns count…` each second gives them by kind, summed over CPUs, as of `ns`
/// (every line counted there is older), and bpftrace prints the map itself as it exits.
/// With ``queueLibrary``: `Q tid ns queue function context` (an add with an
/// `OperationQueue`: the queue's address and the block), `O tid ns function context` and `o tid ns`
/// (the block's operation starting and ending on the queue's thread).
package struct ProbeProgram: Sendable, Equatable {
    /// The target process.
    package var pid: Int32
    /// The file holding Foundation's functions (`libFoundationEssentials.so`, or the executable of
    /// a statically linked app) as its mapping in the process, `/proc/PID/map_files/START-END`
    /// (``isSafeFilePath(_:)``): the file the process mapped, whatever its name says.
    package var library: String

    /// How a delivery's end is seen: each costs the app a trap into the kernel.
    package enum DeliveryEnd: Sendable, Equatable {
        /// A return probe on the closure that calls one observer: two traps per delivery (its
        /// entry and its return), exact durations.
        case closureReturn
        /// A return probe on `_post`: one trap per delivery and one per post. A delivery ends
        /// where the post's next one starts (Foundation's step between two observers is in it)
        /// or where the post returns.
        case nextDeliveryOrPostReturn
    }

    /// How deliveries end (``DeliveryEnd``).
    package var deliveryEnd: DeliveryEnd

    /// Uprobe traps one post with `observers` observers (all run by `post`) costs the app.
    package static func trapsPerPost(observers: Int, deliveryEnd: DeliveryEnd) -> Int {
        switch deliveryEnd {
        case .closureReturn: 1 + 2 * observers
        case .nextDeliveryOrPostReturn: 2 + observers
        }
    }

    /// Longest name read from a large string; bpftrace's default string size less its NUL.
    package static let nameLimit = 63

    /// The file holding ``FoundationSymbols/queueSymbols`` (`libFoundation.so`), nil when the
    /// process has no such file with them: queue observers then look like the others.
    package var queueLibrary: String?

    /// Where `OperationQueue.main`'s storage is from ``FoundationSymbols/queueAddObserver``'s entry,
    /// in ``queueLibrary`` (its address is read there): nil when unknown.
    package var mainQueueOffset: Int64?

    /// How many CPUs the counts are summed over (`@c[kind, 0]` to `@c[kind, cpus - 1]`).
    package var cpus: Int

    /// Whether the file holds ``FoundationSymbols/typedSymbols``: typed message observers' adds and
    /// `AsyncMessage` observers' runs are probed.
    package var seesTypedMessages: Bool

    package init(
        pid: Int32, library: String, queueLibrary: String? = nil, deliveryEnd: DeliveryEnd = .nextDeliveryOrPostReturn,
        cpus: Int = Self.configuredCPUs, seesTypedMessages: Bool = true, mainQueueOffset: Int64? = nil
    ) {
        self.mainQueueOffset = mainQueueOffset
        self.pid = pid
        self.seesTypedMessages = seesTypedMessages
        self.library = library
        self.queueLibrary = queueLibrary
        self.deliveryEnd = deliveryEnd
        self.cpus = min(max(cpus, 1), Self.cpuLimit)
    }

    /// The CPUs the system may bring online.
    package static var configuredCPUs: Int { sysconf(Int32(_SC_NPROCESSORS_CONF)) }
    /// The most CPUs counted: the counting probe's size grows with them.
    package static let cpuLimit = 1_024

    /// Whether `path` may be written into the program: `/proc/DIGITS/map_files/HEX-HEX` and nothing
    /// else, so no byte of a name the target chose can reach bpftrace as code.
    package static func isSafeFilePath(_ path: String) -> Bool {
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, Array(parts[1]) == Array("proc".utf8),
            Array(parts[3]) == Array("map_files".utf8), !parts[2].isEmpty, parts[2].count <= 10,
            parts[2].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return false }
        let range = parts[4].split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        let isHex = { (byte: UInt8) in
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
        }
        return range.count == 2 && range.allSatisfy { !$0.isEmpty && $0.count <= 16 && $0.allSatisfy(isHex) }
    }

    /// The program's text, for `bpftrace -e`; refused when a file is not a ``isSafeFilePath(_:)``.
    package func text() throws(FoundationAttachError) -> String {
        for path in [library] + (queueLibrary.map { [$0] } ?? []) where !Self.isSafeFilePath(path) {
            throw FoundationAttachError(
                "refusing to probe pid \(pid): \(VisibleText.line(path)) is not a /proc/PID/map_files/START-END path")
        }
        return unchecked
    }

    /// The probe that says every other one is attached.
    static let ready = ready(opening: "")

    /// ``ready``, running `statements` first.
    static func ready(opening statements: String) -> String {
        "BEGIN { \(statements.isEmpty ? "" : statements + " ")printf(\"READY\\n\"); }"
    }

    private var unchecked: String {
        let filter = "/pid == \(pid)/"
        let object = #"*(uint64 *)reg("dx"), *(uint64 *)(reg("dx") + 24)"#
        let callers = #"*(uint64 *)reg("sp"), *(uint64 *)(reg("bp") + 8), *(uint64 *)(*(uint64 *)reg("bp") + 8)"#
        return [
            Self.ready,
            "tracepoint:sched:sched_process_exec \(filter) { \(counted(.exec)) printf(\"X %d %llu\\n\", tid, $t); }",
            probe(
                "uprobe", FoundationSymbols.addObserver, filter, .add,
                nameLines(
                    prefix: "A %d %llu %lx %lx %lx %lx %lx %lx %lx %lx",
                    arguments: #"tid, $t, reg("r13"), \#(object), reg("cx"), reg("r8"), \#(callers)"#,
                    low: #"reg("di")"#, high: #"reg("si")"#)),
            probe(
                "uretprobe", FoundationSymbols.addObserver, filter, .added,
                #"printf("a %d %llu %lx %lx\n", tid, $t, reg("ax"), reg("r8"));"#),
            probe(
                "uprobe", FoundationSymbols.post, filter, .post,
                nameLines(
                    prefix: "P %d %llu %lx %lx %lx %lx %lx %lx %lx",
                    arguments: #"tid, $t, reg("r13"), \#(object), \#(callers), reg("r8")"#, low: #"reg("di")"#,
                    high: #"reg("si")"#)),
            probe(
                "uprobe", FoundationSymbols.removeObserver, filter, .remove,
                nameLines(
                    prefix: "R %d %llu %lx %lx %lx %lx %lx %lx %lx",
                    arguments: #"tid, $t, reg("r13"), reg("di"), reg("cx"), \#(callers), reg("dx")"#,
                    low: #"reg("si")"#, high: #"reg("dx")"#)),
            probe(
                "uprobe", FoundationSymbols.delivery, filter, .deliveryStart,
                #"$b = *(uint64 *)(reg("r13") + 32); printf("D %d %llu %lx %lx %lx %lx %lx\n", tid, $t, reg("r13"), "#
                    + #"*(uint64 *)(reg("r13") + 24), $b, *(uint64 *)($b + 40), *(uint64 *)($b + 48));"#),
            deliveryEnd == .closureReturn
                ? probe(
                    "uretprobe", FoundationSymbols.delivery, filter, .deliveryEnd,
                    #"printf("d %d %llu\n", tid, $t);"#)
                : probe(
                    "uretprobe", FoundationSymbols.post, filter, .postEnd, #"printf("p %d %llu\n", tid, $t);"#),
            probe(
                "uprobe", FoundationSymbols.centerDeinit, filter, .centerEnd,
                #"printf("E %d %llu %lx\n", tid, $t, reg("r13"));"#),
            counts,
        ].joined(separator: "\n") + "\n" + typedProbes(filter: filter, callers: callers) + queueProbes(filter: filter)
    }

    /// A typed message observer's add and return, and an `AsyncMessage` observer's run.
    private func typedProbes(filter: String, callers: String) -> String {
        guard seesTypedMessages else { return "" }
        let token = #"*(uint64 *)(reg("ax") + 16), *(uint64 *)(reg("ax") + 40), *(uint64 *)(reg("ax") + 32)"#
        let added = nameLines(
            prefix: "m %d %llu %lx %lx %lx", arguments: "tid, $t, \(token)", low: #"*(uint64 *)(reg("ax") + 24)"#,
            high: #"*(uint64 *)(reg("ax") + 32)"#)
        // The subject is a class reference or nil, held indirectly: its address, then its class.
        func add(_ tag: String, subject: String, closure: String, metadata: String) -> String {
            #"$s = *(uint64 *)reg("\#(subject)"); printf("\#(tag) %d %llu %lx %lx %lx %lx %lx %lx %lx %lx %lx\n", "#
                + #"tid, $t, reg("r13"), $s, *(uint64 *)$s, \#(closure), reg("\#(metadata)"), \#(callers));"#
        }
        return [
            probe(
                "uprobe", FoundationSymbols.addMainActorObserver, filter, .typedAdd,
                add("M", subject: "di", closure: #"reg("si"), reg("dx")"#, metadata: "cx")),
            probe("uretprobe", FoundationSymbols.addMainActorObserver, filter, .typedAdded, added),
            probe(
                "uprobe", FoundationSymbols.addAsyncObserver, filter, .typedAdd,
                add("Y", subject: "si", closure: #"reg("dx"), reg("cx")"#, metadata: "di")),
            probe("uretprobe", FoundationSymbols.addAsyncObserver, filter, .typedAdded, added),
            probe(
                "uprobe", FoundationSymbols.asyncRun, filter, .asyncRunStart,
                #"printf("W %d %llu %lx %lx %lx\n", tid, $t, reg("r14"), *(uint64 *)(reg("r13") + 32), "#
                    + #"*(uint64 *)(reg("r13") + 40));"#),
            probe(
                "uprobe", FoundationSymbols.asyncRunResume, filter, .asyncRunEnd,
                #"printf("w %d %llu %lx\n", tid, $t, *(uint64 *)(*(uint64 *)reg("r14")));"#),
            // A sequence's add: its iterator stands for the observer's closure until a delivery
            // names it; the subject is held directly.
            probe(
                "uprobe", FoundationSymbols.sequenceIteratorInit, filter, .typedAdd,
                #"$s = reg("si"); $k = $s == 0 ? 0 : *(uint64 *)$s; "#
                    + #"printf("G %d %llu %lx %lx %lx 0 %lx %lx %lx %lx %lx\n", tid, $t, reg("di"), $s, $k, reg("r13"), "#
                    + #"*(uint64 *)(*(uint64 *)reg("r13") + 56), \#(callers));"#),
            probe(
                "uretprobe", FoundationSymbols.sequenceIteratorInit, filter, .typedAdded,
                #"$b = *(uint64 *)(*(uint64 *)(reg("ax") + 16) + 16); "#
                    + nameLines(
                        prefix: "m %d %llu %lx %lx %lx",
                        arguments: #"tid, $t, *(uint64 *)($b + 16), *(uint64 *)($b + 40), *(uint64 *)($b + 32)"#,
                        low: #"*(uint64 *)($b + 24)"#, high: #"*(uint64 *)($b + 32)"#)),
            probe(
                "uprobe", FoundationSymbols.sequenceCallback, filter, .sequenceDelivery,
                #"printf("B %d %llu %lx\n", tid, $t, reg("r13"));"#),
        ].joined(separator: "\n") + "\n"
    }

    private func queueProbes(filter: String) -> String {
        guard let queueLibrary else { return "" }
        // The probe fires at the function's first byte: the storage is a fixed distance from it.
        let mainQueue = mainQueueOffset.map { #"*(uint64 *)(reg("ip") + ("# + String($0) + "))" } ?? "0"
        return [
            probe(
                "uprobe", FoundationSymbols.queueAddObserver, "/pid == \(pid) && reg(\"cx\") != 0/", .queueAdd,
                #"printf("Q %d %llu %lx %lx %lx %lx\n", tid, $t, reg("cx"), reg("r8"), reg("r9"), "# + mainQueue + ");",
                in: queueLibrary),
            probe(
                "uprobe", FoundationSymbols.queueOperation, filter, .operationStart,
                #"printf("O %d %llu %lx %lx\n", tid, $t, *(uint64 *)(reg("r13") + 16), *(uint64 *)(reg("r13") + 24));"#,
                in: queueLibrary),
            probe(
                "uretprobe", FoundationSymbols.queueOperation, filter, .operationEnd,
                #"printf("o %d %llu\n", tid, $t);"#,
                in: queueLibrary),
        ].joined(separator: "\n") + "\n"
    }

    private func probe(
        _ kind: String, _ symbol: String, _ filter: String, _ line: ProbeLineKind, _ body: String,
        in file: String? = nil
    ) -> String {
        "\(kind):\(file ?? library):\"\(symbol)\" \(filter) { \(counted(line)) \(body) }"
    }

    /// The line's time, read before it is counted, then the count on this CPU.
    private func counted(_ line: ProbeLineKind) -> String { "$t = nsecs; @c[\(line.rawValue), cpu]++;" }

    /// Each second, every kind's count summed over the CPUs, then the time: a line counted there
    /// was timed before it.
    private var counts: String {
        let kinds = ProbeLineKind.allCases.map { kind in
            "$k\(kind.rawValue) = " + (0..<cpus).map { "@c[\(kind.rawValue), \($0)]" }.joined(separator: " + ") + ";"
        }
        let formats = String(repeating: " %llu", count: ProbeLineKind.allCases.count)
        let values = ProbeLineKind.allCases.map { ", $k\($0.rawValue)" }.joined()
        return "interval:s:1 { " + kinds.joined(separator: " ")
            + " $t = nsecs; printf(\"C 0 %llu\(formats)\\n\", $t\(values)); }"
    }

    /// Prints one line whose NAME is the `String?` held in the words `low:high` (expressions): bit
    /// 61 of the high word marks a small string, 0 means nil, else the low 56 bits point 32 bytes
    /// before the UTF-8 bytes (NUL-terminated) and the low 48 bits of the low word count them.
    private func nameLines(prefix: String, arguments: String, low lowWord: String, high highWord: String) -> String {
        "if ((\(highWord) >> 61) & 1) { printf(\"\(prefix) S %lx %lx\\n\", \(arguments), \(lowWord), \(highWord)); } "
            + "else if (\(highWord) == 0) { printf(\"\(prefix) N\\n\", \(arguments)); } "
            + "else { printf(\"\(prefix) L %d %s\\n\", \(arguments), \(lowWord) & 0xffffffffffff, "
            + "str((\(highWord) & 0xffffffffffffff) + 32)); }"
    }
}
