import Glibc
import NotifySystem

/// The next bpftrace program of a mode switch, attaching while the running one goes on, so that
/// no moment of the app goes unseen and none is seen twice.
///
/// Both programs see the app while the next one attaches. Once it is ready, notifytop moves the
/// counting program's gate (``CountingProgram/Switch``): the moment it moved, printed by that
/// program, is the *cutover*. The counting program counts exactly the posts made on its side of
/// it, with their deliveries; the event program's lines on the other side are shown, with the
/// deliveries of a post it printed before the cutover that end after it
/// (``ProbeEventBuilder/continuesPostUnderWay(_:)``). Until the running program's last lines are
/// in, the next one's are kept here, in the order they arrived.
struct ProbeHandover {
    /// The next program's mode.
    let mode: ProbeMode
    private(set) var process: ChildProcess
    private(set) var lines: LineReader
    /// bpftrace's stderr, for the one-line reason it failed to attach.
    let errors: Int32
    let startedAt: UInt64
    /// When the next program said it is attached (monotonic ns, the probes' clock).
    private(set) var readyAt: UInt64?
    /// When the gate was last asked to move, and how many times it was.
    private(set) var askedAt: UInt64?
    private(set) var asks = 0
    /// The moment the gate moved, and when notifytop read it.
    private(set) var cutover: UInt64?
    private(set) var cutoverSeenAt: UInt64?
    /// The next program's lines until the hand-over, and how many did not fit.
    private(set) var kept: [String] = []
    private(set) var overflow: UInt64 = 0
    static let keptLimit = 1 << 19
    /// The running program's lines due to be shown from the moment the gate was asked to move, held
    /// until the cutover says on which side of it each one is.
    private(set) var deferred: [ProbeLine] = []
    /// How long the next program may take to attach; how long the gate may take to move once asked.
    static let attachNanoseconds: UInt64 = 60_000_000_000
    static let askNanoseconds: UInt64 = 1_000_000_000
    static let asksTried = 5

    init(mode: ProbeMode, process: ChildProcess, lines: LineReader, errors: Int32, now: UInt64) {
        self.mode = mode
        self.process = process
        self.lines = lines
        self.errors = errors
        startedAt = now
    }

    /// Takes every line the next program has printed, without waiting.
    mutating func read(now: UInt64) {
        while let line = lines.next(timeoutMilliseconds: 0) {
            if readyAt == nil && line == "READY" {
                readyAt = now
                continue
            }
            if mode == .counting, case .switched(let time)? = CountingLine(line[...]) {
                cut(at: time, now: now)
                continue
            }
            if kept.count < Self.keptLimit {
                kept.append(line)
            } else {
                overflow += 1
            }
        }
    }

    /// The counting program says its gate moved at `time`.
    mutating func cut(at time: UInt64, now: UInt64) {
        guard cutover == nil, askedAt != nil else { return }
        cutover = time
        cutoverSeenAt = now
    }

    /// Whether the gate is to be asked to move now: the next program is ready and the gate has not
    /// moved since the last ask, a while ago. Notes the ask.
    mutating func asksToMove(now: UInt64) -> Bool {
        guard readyAt != nil, cutover == nil, asks < Self.asksTried else { return false }
        if let askedAt, now &- askedAt < Self.askNanoseconds { return false }
        askedAt = now
        asks += 1
        return true
    }

    /// Whether a line of the running program, due to be shown, waits for the cutover: it came
    /// after the gate was asked to move (or after one that waits).
    mutating func defers(_ line: ProbeLine) -> Bool {
        guard cutover == nil, let askedAt else { return false }
        let after = line.kind != nil && (line.time ?? 0) >= askedAt
        guard after || !deferred.isEmpty else { return false }
        deferred.append(line)
        return true
    }

    /// The deferred lines, once the cutover is known (or the switch abandoned).
    mutating func takeDeferred() -> [ProbeLine] {
        defer { deferred = [] }
        return deferred
    }

    /// Why the next program cannot take over, once it cannot be waited on any longer; nil while it may.
    mutating func failure(pid: Int32, now: UInt64) -> String? {
        if readyAt == nil {
            guard lines.ended || process.termination() != nil || now &- startedAt > Self.attachNanoseconds else {
                return nil
            }
            let ended = process.termination()
            process.terminate(graceMilliseconds: 500)
            return FoundationProbeSession.attachFailure(
                pid: pid, termination: ended, errors: FoundationProbeSession.contents(of: errors),
                timeoutSeconds: Int(Self.attachNanoseconds / 1_000_000_000)
            ).description
        }
        if cutover == nil, asks >= Self.asksTried, let askedAt, now &- askedAt >= Self.askNanoseconds {
            return "the counting probes' gate did not move (is tracepoint:syscalls:sys_enter_getpriority there?)"
        }
        if lines.ended || process.termination() != nil {
            process.terminate(graceMilliseconds: 500)
            return "bpftrace ended as it attached"
        }
        return nil
    }

    /// Ends the next program: the switch is abandoned. The deferred lines are the caller's to show.
    mutating func abandon() -> [ProbeLine] {
        process.terminate(graceMilliseconds: 500)
        lines.close()
        close(errors)
        return takeDeferred()
    }

    /// What the session takes over: the next program, its reader, the lines it kept.
    mutating func takeOver() -> (process: ChildProcess, lines: LineReader, kept: [String], overflow: UInt64) {
        close(errors)
        defer { kept = [] }
        return (process, lines, kept, overflow)
    }
}
