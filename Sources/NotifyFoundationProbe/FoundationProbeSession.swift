import Foundation
package import NotifySystem
package import NotifyWire

/// Watches a running process's Foundation `NotificationCenter` through bpftrace and writes what
/// it sees as a notifytop trace (JSON Lines) into a socket, whose other end a `TraceReader`
/// reads like an inspector's.
///
/// bpftrace runs ``ProbeProgram``; a thread of its own turns each output line into trace events
/// (``ProbeEventBuilder``) and writes them. While nothing happens it writes a `tick` each second;
/// when the process exits it writes `end` (`process-exit`), when it execs another program `end`
/// (`process-exec: …`), after reading what bpftrace still holds. A viewer that stops
/// reading slows only this thread: bpftrace's buffer then fills, and what the kernel drops
/// arrives as `gap` lines (`probe-buffer-full`, or `probe-lines-lost` for what bpftrace drops
/// without a word: the kernel's counts of each probe's lines show it). The app is never waited on.
package final class FoundationProbeSession: @unchecked Sendable {  // its state is the thread's alone
    /// What the probes cannot see, said in the header's producer text and in docs/foundation.md:
    /// queue targets are seen when the process maps `libFoundation.so` with its symbols.
    /// Typed message observers are seen when Foundation has ``FoundationSymbols/typedSymbols``.
    package static func producer(seesQueues: Bool, seesTypedMessages: Bool = true, mode: ProbeMode = .events) -> String
    {
        "notifytop \(PackageVersion.current) Foundation probes (bpftrace, \(mode.label)); not available: "
            + (mode == .counting
                ? "single posts and deliveries (handler durations, R7, cascades, explain, Events: event mode), "
                : "")
            + "token release (R1), object deaths (R3), "
            + "userInfo, \(seesQueues ? "" : "queue targets, ")main-thread-only declarations, "
            + "registrations made before attach (their site and object)"
            + (seesTypedMessages
                ? ""
                : ", typed message registrations (their site, subject and removal), async message observers' runs")
    }

    package let pid: Int32
    /// The viewer's end of the stream.
    package let stream: UnixSocket
    private let writer: Int32
    var bpftrace: ChildProcess
    var lines: LineReader
    /// Each mode's program text as a switch starts it, to switch without attaching anew.
    let programs: [ProbeMode: String]
    /// The mode the probes run (the probes' thread's own), and the one asked for.
    var running: ProbeMode
    var wantedMode: ProbeMode
    var counting = CountingReader(holdNanoseconds: FoundationProbeSession.reorderNanoseconds)
    var builder: ProbeEventBuilder
    private let symbolizer: Symbolizer
    /// Thread names read when a thread's first line arrives, before ``ProbeLineOrder`` holds it: a
    /// short-lived thread may be gone by the time the line is released.
    let threadNames = ThreadNames()
    private let maps: ProcessMaps
    let stopped = Lock()
    /// Whether queue observers' targets and threads are seen (``ProbeProgram/queueLibrary``).
    package let seesQueues: Bool
    /// Whether typed message observers' adds and async runs are seen (``ProbeProgram/seesTypedMessages``).
    package let seesTypedMessages: Bool
    private var stopRequested = false
    /// When the process started (`/proc/PID/stat`), to tell it from a later one with its pid.
    private let startTime: UInt64?

    /// Checks what attaching needs, starts bpftrace and waits until its probes are attached (at
    /// most `timeoutSeconds`). The header is the stream's first line.
    package init(
        pid: Int32, timeoutSeconds: Int = 60, deliveryEnd: ProbeProgram.DeliveryEnd = .nextDeliveryOrPostReturn,
        mode: ProbeMode = .events
    ) throws(FoundationAttachError) {
        let (maps, library) = try FoundationPreflight.check(pid: pid)
        self.pid = pid
        self.maps = maps
        startTime = Self.startTime(pid: pid)
        guard let bpftracePath = TrustedTools.bpftrace() else {
            throw FoundationAttachError(
                "no trusted bpftrace in " + TrustedTools.bpftraceLocations.joined(separator: ", "))
        }
        let (queueLibrary, mainQueueOffset) = Self.queueLibrary(pid: pid, maps: maps, library: library)
        let seesTypedMessages = Self.hasTypedSymbols(library.mapFilesPath(pid: pid))
        let program = ProbeProgram(
            pid: pid, library: library.mapFilesPath(pid: pid), queueLibrary: queueLibrary, deliveryEnd: deliveryEnd,
            seesTypedMessages: seesTypedMessages, mainQueueOffset: mainQueueOffset)
        // A counting program started by a switch counts from the moment its gate opens.
        let programs = [
            ProbeMode.events: try program.text(), .counting: try CountingProgram(events: program, gate: .closed).text(),
        ]
        self.programs = programs
        let first = mode == .counting ? try CountingProgram(events: program).text() : programs[.events] ?? ""
        running = mode
        wantedMode = mode
        shownMode = mode
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw FoundationAttachError("socketpair: \(String(cString: strerror(errno)))")
        }
        stream = UnixSocket(descriptor: pair[0])
        writer = pair[1]
        seesQueues = queueLibrary != nil
        self.seesTypedMessages = seesTypedMessages
        let errors = Self.temporaryFile()
        do throws(FoundationAttachError) {
            (bpftrace, lines) = try Self.startBpftrace(bpftracePath, program: first, errors: errors)
        } catch {
            close(errors)
            close(writer)
            throw error
        }
        let symbolizer = Symbolizer()
        self.symbolizer = symbolizer
        builder = ProbeEventBuilder(
            pid: pid,
            lookups: Self.lookups(pid: pid, maps: maps, symbolizer: symbolizer, threadNames: threadNames))
        runningProbes = [bpftrace]
        try waitUntilAttached(timeoutSeconds: timeoutSeconds, errors: errors)
        close(errors)
        var header: [UInt8] = []
        TraceEncoder.encode(
            .header(Self.header(pid: pid, seesQueues: seesQueues, seesTypedMessages: seesTypedMessages, mode: mode)),
            into: &header)
        guard writeAll(header) else { throw FoundationAttachError("the viewer closed the stream") }
        let thread = Thread { [self] in run() }
        thread.name = "notifytop-probes"
        thread.start()
    }

    deinit { bpftrace.terminate(graceMilliseconds: 500) }

    /// Stops bpftrace now, so that no probe outlives notifytop (bpftrace runs in a session of its
    /// own); the stream ends with `end` (`inspector-stopped`) soon after.
    /// The mode the probes run now.
    package var mode: ProbeMode { stopped.withLock { shownMode } }
    /// The mode last asked for (``switchMode(to:)``).
    package var requestedMode: ProbeMode { stopped.withLock { wantedMode } }
    var shownMode: ProbeMode = .events
    /// The next program while a switch attaches it (the probes' thread's own).
    var handover: ProbeHandover?
    /// Why the last switch failed, until read (``takeSwitchFailure()``).
    var switchFailure: String?
    /// The probes' time before which lines are the previous program's (the last switch's cutover).
    var showsFrom: UInt64 = 0
    /// The latest probe time among the running program's lines read.
    var latestProbeTime: UInt64 = 0
    /// The bpftrace programs running, for ``stop()`` on another thread.
    var runningProbes: [ChildProcess] = []

    /// Asks for the probes to run in `mode`: bpftrace starts that mode's program beside the running
    /// one, which hands over to it once attached (a few seconds); the app is not restarted, and
    /// nothing it does meanwhile goes unseen.
    package func switchMode(to mode: ProbeMode) {
        stopped.withLock { wantedMode = mode }
    }

    /// Why the last switch did not happen (the probes stay in their mode), once; nil when none failed.
    package func takeSwitchFailure() -> String? {
        stopped.withLock {
            defer { switchFailure = nil }
            return switchFailure
        }
    }

    /// bpftrace's environment: the trusted one, with room for the counting maps' keys.
    static let environment =
        TrustedTools.environment + ["BPFTRACE_MAP_KEYS_MAX=\(CountingProgram.mapKeys)"]

    package func stop() {
        let programs = stopped.withLock {
            stopRequested = true
            return runningProbes
        }
        for program in programs { program.terminate(graceMilliseconds: 500) }
    }

    /// Starts `bpftrace -e program` (at the trusted `path`) with its stderr into `errors`, and the
    /// reader of its output.
    static func startBpftrace(
        _ path: String, program: String, errors: Int32
    ) throws(FoundationAttachError) -> (ChildProcess, LineReader) {
        do {
            let output = try ChildProcess.makePipe()
            let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
            let process = try ChildProcess(
                [path, "-e", program], input: null, output: output[1], error: errors, environment: environment)
            close(null)
            close(output[1])
            return (process, LineReader(descriptor: output[0], maximumLineBytes: maximumLineBytes))
        } catch {
            throw FoundationAttachError("cannot start bpftrace: \(error)")
        }
    }

    /// The header: this process, the probes as producer, the clocks read now.
    package static func header(
        pid: Int32, seesQueues: Bool, seesTypedMessages: Bool = true, mode: ProbeMode = .events
    ) -> TraceHeader {
        var mono = timespec()
        clock_gettime(CLOCK_MONOTONIC, &mono)
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        return TraceHeader(
            pid: pid, process: threadName(pid: pid, tid: pid), center: "Foundation NotificationCenter",
            clockMono: UInt64(mono.tv_sec) * 1_000_000_000 + UInt64(mono.tv_nsec),
            clockWall: UInt64(wall.tv_sec) * 1_000_000_000 + UInt64(wall.tv_nsec),
            producer: producer(seesQueues: seesQueues, seesTypedMessages: seesTypedMessages, mode: mode))
    }

    /// The mapping (as `/proc/PID/map_files/…`) of the file with ``FoundationSymbols/queueSymbols``:
    /// the mapped `libFoundation.so`, or the executable when Foundation is linked in statically;
    /// nil when it lacks them; with the distance from ``FoundationSymbols/queueAddObserver`` to
    /// ``FoundationSymbols/mainQueueStorage`` when it has both.
    private static func queueLibrary(
        pid: Int32, maps: ProcessMaps, library: ProcessMaps.Mapping
    ) -> (String?, Int64?) {
        let file = (maps.mapping(named: FoundationSymbols.queueLibraryName) ?? library).mapFilesPath(pid: pid)
        guard let bytes = SystemFiles.bytes(file, followsLinks: true),
            let symbols = ELFSymbols(
                bytes: bytes, looking: Set(FoundationSymbols.queueSymbols + [FoundationSymbols.mainQueueStorage])),
            FoundationSymbols.queueSymbols.allSatisfy(symbols.found.contains)
        else { return (nil, nil) }
        guard let storage = symbols.values[FoundationSymbols.mainQueueStorage],
            let entry = symbols.values[FoundationSymbols.queueAddObserver]
        else { return (file, nil) }
        return (file, Int64(bitPattern: storage &- entry))
    }

    /// Whether Foundation's file has ``FoundationSymbols/typedSymbols`` (a statically linked app
    /// may lack them).
    private static func hasTypedSymbols(_ file: String) -> Bool {
        guard let bytes = SystemFiles.bytes(file, followsLinks: true),
            let symbols = ELFSymbols(bytes: bytes, looking: Set(FoundationSymbols.typedSymbols))
        else { return false }
        return symbols.found.count == FoundationSymbols.typedSymbols.count
    }

    /// The longest line bpftrace prints for the program (a large string's name is at most
    /// ``ProbeProgram/nameLimit`` bytes); a longer one is skipped and reported as a loss.
    static let maximumLineBytes = 4_096

    private func waitUntilAttached(timeoutSeconds: Int, errors: Int32) throws(FoundationAttachError) {
        for _ in 0..<timeoutSeconds {
            while let line = lines.next(timeoutMilliseconds: 1_000) {
                if line == "READY" { return }
            }
            if lines.ended || bpftrace.termination() != nil { break }
        }
        // bpftrace that closed its output is about to exit: its status, when it has one, says so.
        let ended = lines.ended ? bpftrace.wait(timeoutMilliseconds: 2_000) : bpftrace.termination()
        bpftrace.terminate(graceMilliseconds: 500)
        close(writer)
        throw Self.attachFailure(
            pid: pid, termination: ended, errors: Self.contents(of: errors), timeoutSeconds: timeoutSeconds)
    }

    /// Why bpftrace did not attach: its first error line, else how it ended and the start of what
    /// it wrote on stderr (made visible, bounded), else the timeout. One line.
    package static func attachFailure(
        pid: Int32, termination: ChildProcess.Termination?, errors: String, timeoutSeconds: Int
    ) -> FoundationAttachError {
        let lines = errors.split(separator: "\n").filter { !$0.contains("RLIMIT_MEMLOCK") }
        let reason: String
        if let error = lines.first(where: { $0.hasPrefix("ERROR") }) {
            reason = VisibleText.line(String(error), limit: 300)
        } else if let termination {
            let said = lines.prefix(3).joined(separator: " | ")
            reason =
                "bpftrace ended at once (\(termination))"
                + (said.isEmpty ? "" : ": " + VisibleText.line(said, limit: 300))
        } else {
            reason = "no probe attached within \(timeoutSeconds) s"
        }
        return FoundationAttachError("bpftrace could not attach to pid \(pid): \(reason)")
    }

    /// How long a probe line waits for older lines from other CPUs (``ProbeLineOrder``).
    static let reorderNanoseconds: UInt64 = 250_000_000

    /// How long bpftrace may take, once asked to end, to print what it holds and exit.
    static let drainMilliseconds: UInt64 = 10_000

    private func run() {
        var events: [TraceEvent] = []
        var bytes: [UInt8] = []
        var released: [ProbeLine] = []
        var order = ProbeLineOrder(holdNanoseconds: Self.reorderNanoseconds)
        var reason: TraceEndReason = "inspector-stopped"
        var quietSince = Self.monotonicNow()
        var checkedAt = quietSince
        var writing = true
        var reported = (longLines: UInt64(0), dropped: UInt64(0))
        // When the process exec'd (the probes' clock) and when that was seen.
        var exec: (at: UInt64, seen: UInt64)?
        // Once the view is to end: bpftrace was asked to end and its last lines are read until it
        // closes its output (its exit counts come last) or this time passes.
        var drainUntil: UInt64?
        let drain = { [self] (why: TraceEndReason, now: UInt64) in
            reason = why
            drainUntil = now + Self.drainMilliseconds * 1_000_000
            if bpftrace.termination() == nil { kill(bpftrace.pid, SIGTERM) }
        }
        while writing && !stopped.withLock({ stopRequested }) {
            events.removeAll(keepingCapacity: true)
            released.removeAll(keepingCapacity: true)
            let now = Self.monotonicNow()
            if let until = drainUntil, now >= until { break }
            if drainUntil == nil, exec == nil {
                followSwitch(now: now, order: &order, exec: &exec, events: &events, longLines: &reported.longLines)
                if !events.isEmpty {
                    bytes.removeAll(keepingCapacity: true)
                    TraceEncoder.encode(events, into: &bytes)
                    writing = writeAll(bytes)
                    continue
                }
            } else if handover != nil {
                endSwitch(
                    because: "the process ended or exec'd", execd: exec != nil, order: &order, exec: &exec,
                    events: &events, longLines: &reported.longLines)
            }
            if drainUntil == nil, let exec, now - exec.seen >= Self.reorderNanoseconds {
                drain(TraceEndReason(rawValue: execReason()), now)
            }
            if let line = lines.next(timeoutMilliseconds: handover == nil ? 50 : 10) {
                take(line, now: now, order: &order, released: &released, exec: &exec)
                quietSince = now
            } else if lines.ended {
                // bpftrace closed its output: it is ending, and says how when it has.
                if drainUntil == nil {
                    let ended = bpftrace.wait(timeoutMilliseconds: 1_000).map { " (bpftrace: \($0))" } ?? ""
                    reason = TraceEndReason(rawValue: "probes-ended" + ended)
                }
                break
            } else if drainUntil == nil && kill(pid, 0) != 0 && errno == ESRCH {
                drain(.processExit, now)
            } else if order.isEmpty && now - quietSince >= 1_000_000_000 {
                events.append(.tick(TraceTick(seq: builder.nextSeq(), timestamp: now)))
                quietSince = now
            }
            if drainUntil == nil && now - checkedAt >= 1_000_000_000 {
                checkedAt = now
                // Gone, or its pid taken by another process since (a busy stream never idles).
                if exec == nil, let startTime, Self.processReplaced(pid: pid, startedAt: startTime) {
                    drain(.processExit, now)
                }
            }
            order.release(now: Self.monotonicNow(), into: &released)
            release(released, into: &events)
            counting.note(events)
            counting.release(now: Self.monotonicNow(), builder: &builder, events: &events)
            reportSkipped(order: order, reported: &reported, events: &events)
            guard !events.isEmpty else { continue }
            bytes.removeAll(keepingCapacity: true)
            TraceEncoder.encode(events, into: &bytes)
            writing = writeAll(bytes)
        }
        bpftrace.terminate(graceMilliseconds: 500)
        if handover != nil {
            abandonSwitch(because: "the probes ended", events: &events)
        }
        bytes.removeAll()
        if writing {
            // The lines still held: the process or the probes ended, nothing older can come. Then
            // what the kernel counted and never arrived.
            events.removeAll()
            released.removeAll()
            order.releaseAll(into: &released)
            release(released, into: &events)
            counting.note(events)
            counting.releaseAll(builder: &builder, events: &events)
            reportSkipped(order: order, reported: &reported, events: &events)
            builder.reconcile(to: &events)
            TraceEncoder.encode(events, into: &bytes)
        }
        let end = TraceEnd(seq: builder.nextSeq(), timestamp: Self.monotonicNow(), reason: reason)
        TraceEncoder.encode(.end(end), into: &bytes)
        _ = writeAll(bytes)
        close(writer)
    }

    /// Takes one line of bpftrace's output: a map read's to ``counting``, a probe line's into `order`.
    func take(
        _ line: String, now: UInt64, order: inout ProbeLineOrder, released: inout [ProbeLine],
        exec: inout (at: UInt64, seen: UInt64)?
    ) {
        if let counted = CountingLine(line[...]) {
            if case .switched(let time) = counted {
                handover?.cut(at: time, now: now)
            } else if case .thread(let tid) = counted {
                if threadNames.names[tid] == nil { threadNames.names[tid] = Self.threadName(pid: pid, tid: tid) }
            } else {
                counting.add(counted, now: now)
            }
            return
        }
        guard let probe = ProbeLine(line[...]) else { return }
        if case .exec(_, let time) = probe {
            exec = (time, now)
            return
        }
        if let exec, let time = probe.time, time > exec.at { return }  // the new program's: not this one's to show
        if let time = probe.time { latestProbeTime = max(latestProbeTime, time) }
        if let tid = probe.thread, threadNames.names[tid] == nil {
            threadNames.names[tid] = Self.threadName(pid: pid, tid: tid)
        }
        order.add(probe, releasing: &released)
    }

    /// Lines notifytop itself skipped since last reported: too long, or beyond the order's bound.
    private func reportSkipped(
        order: ProbeLineOrder, reported: inout (longLines: UInt64, dropped: UInt64), events: inout [TraceEvent]
    ) {
        if lines.skippedLongLines != reported.longLines {
            builder.lose(lines.skippedLongLines - reported.longLines, reason: "probe-line-too-long", to: &events)
            reported.longLines = lines.skippedLongLines
        }
        if order.dropped != reported.dropped {
            builder.lose(order.dropped - reported.dropped, reason: "probe-queue-full", to: &events)
            reported.dropped = order.dropped
        }
    }

    /// The end's reason after an exec: the program the process runs now, made visible.
    private func execReason() -> String {
        var target = [CChar](repeating: 0, count: 4_097)
        let count = readlink("/proc/\(pid)/exe", &target, 4_096)
        let program =
            count > 0 ? String(decoding: target.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        return "process-exec: process \(pid) exec'd \(VisibleText.line(program))"
    }

    /// Whether process `pid`, which started at `startedAt` (``startTime(pid:)``), is gone, or its
    /// pid now names another process.
    package static func processReplaced(pid: Int32, startedAt: UInt64) -> Bool {
        startTime(pid: pid) != startedAt
    }

    /// When process `pid` started, in clock ticks since boot (`/proc/PID/stat`'s 22nd field);
    /// nil when it is gone.
    package static func startTime(pid: Int32) -> UInt64? {
        guard let stat = SystemFiles.text("/proc/\(pid)/stat", limit: 4_096),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After the name (which may hold spaces and parentheses): state is field 3, start time 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    /// Writes everything, waiting for the viewer as long as it takes; false once it has gone.
    private func writeAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                send(writer, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private static func lookups(
        pid: Int32, maps: ProcessMaps, symbolizer: Symbolizer, threadNames: ThreadNames
    ) -> ProbeEventBuilder.Lookups {
        ProbeEventBuilder.Lookups(
            threadName: { threadNames.names[$0] ?? threadName(pid: pid, tid: $0) },
            site: { callers in
                let address = callers.first { !maps.isFoundation($0) } ?? callers.last ?? 0
                guard let place = maps.locate(address) else { return .unknown }
                return symbolizer.site(path: place.base.mapFilesPath(pid: pid), address: place.address)
            },
            typeName: { metadata in
                guard let place = maps.locate(metadata),
                    let symbol = symbolizer.dataSymbol(path: place.base.mapFilesPath(pid: pid), address: place.address)
                else { return "unknown type (metadata 0x\(String(metadata, radix: 16)))" }
                return symbol.hasPrefix("type metadata for ") ? String(symbol.dropFirst(18)) : symbol
            },
            message: { callers in
                // `_post`'s caller: Foundation's typed message `post`, named after its protocol.
                guard let first = callers.first, maps.isFoundation(first), let place = maps.locate(first) else {
                    return nil
                }
                let caller = symbolizer.site(path: place.base.mapFilesPath(pid: pid), address: place.address).file
                if caller.contains("MainActorMessage") { return .mainActor }
                if caller.contains("AsyncMessage") { return .async }
                return nil
            },
            messageName: { metadata in
                guard let place = maps.locate(metadata),
                    let symbol = symbolizer.dataSymbol(path: place.base.mapFilesPath(pid: pid), address: place.address)
                else { return nil }
                return SwiftDemangle.metadataType(symbol)
            })
    }

    /// The kernel's name of a thread (`comm`), "thread TID" when it is gone.
    package static func threadName(pid: Int32, tid: Int32) -> String {
        guard let text = SystemFiles.text("/proc/\(pid)/task/\(tid)/comm") else { return "thread \(tid)" }
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    static func monotonicNow() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    static func temporaryFile() -> Int32 {
        var template = Array("/tmp/notifytop-bpftrace-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd >= 0 { template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } }
        return fd
    }

    static func contents(of fd: Int32) -> String {
        guard fd >= 0 else { return "" }
        lseek(fd, 0, SEEK_SET)
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
    }
}

/// The names of the target's threads as first seen, by thread id; used on the probes' thread only.
final class ThreadNames {
    var names: [Int32: String] = [:]
}
