import Glibc
import NotifySystem
import NotifyWire

/// `P`'s switch between ``ProbeMode``s without a blind moment: the next program attaches beside
/// the running one, the counting program's gate moves at one moment, the cutover, and each
/// program's lines on its own side of it are shown (``ProbeHandover``). Only the handlers running
/// when the old program ends are lost, as a gap ``ProbeEventBuilder/probesSwitched``.
extension FoundationProbeSession {
    /// One step of a switch, on the probes' thread: starts the next program when a mode is asked
    /// for, reads what it prints, moves the gate once it is ready, and hands over once every line
    /// of the old program's side can have arrived. Writes into `events` what that releases.
    func followSwitch(
        now: UInt64, order: inout ProbeLineOrder, exec: inout (at: UInt64, seen: UInt64)?,
        events: inout [TraceEvent], longLines: inout UInt64
    ) {
        if handover == nil {
            let wanted = stopped.withLock { wantedMode }
            guard wanted != running else { return }
            do throws(FoundationAttachError) {
                handover = try startProgram(wanted, now: now)
            } catch {
                fail(error.description)
            }
            return
        }
        handover!.read(now: now)
        if let failure = handover!.failure(pid: pid, now: now) {
            abandonSwitch(because: failure, events: &events)
            return
        }
        if handover!.asksToMove(now: now) {
            (handover!.mode == .counting ? CountingProgram.Switch.open : .close).call(watching: pid)
        }
        release([], into: &events)
        if let seen = handover!.cutoverSeenAt, now &- seen >= Self.reorderNanoseconds {
            handOver(order: &order, exec: &exec, events: &events, longLines: &longLines)
        }
        counting.note(events)
    }

    /// The process ended (or exec'd) during a switch. Once the gate has moved, the next program
    /// holds the app's last counts or lines: it takes over and is asked to end as the old one was.
    /// Before, or after an exec (nothing past it is this process's), the switch is abandoned.
    func endSwitch(
        because reason: String, execd: Bool, order: inout ProbeLineOrder, exec: inout (at: UInt64, seen: UInt64)?,
        events: inout [TraceEvent], longLines: inout UInt64
    ) {
        guard !execd, handover?.cutover != nil else {
            abandonSwitch(because: reason, events: &events)
            return
        }
        handOver(order: &order, exec: &exec, events: &events, longLines: &longLines)
        if bpftrace.termination() == nil { kill(bpftrace.pid, SIGTERM) }
    }

    /// Ends a switch under way: the running program goes on (its gate open again, when it counts).
    func abandonSwitch(because reason: String, events: inout [TraceEvent]) {
        guard var next = handover else { return }
        handover = nil
        if next.askedAt != nil && running == .counting { CountingProgram.Switch.open.call(watching: pid) }
        let deferred = next.abandon()
        fail(reason)
        release(deferred, into: &events)
    }

    /// Gives the builder what the probes' order released, each line on its own side of a switch's
    /// cutover: lines before ``showsFrom`` were the previous program's time; while a switch runs,
    /// the running program's lines after the moment the gate was asked to move wait for the
    /// cutover, and those past it are the next program's (but a post's own, printed before it).
    func release(_ released: [ProbeLine], into events: inout [TraceEvent]) {
        if handover?.cutover != nil {
            for probe in handover!.takeDeferred() { releaseOne(probe, into: &events) }
        }
        for probe in released { releaseOne(probe, into: &events) }
    }

    private func releaseOne(_ probe: ProbeLine, into events: inout [TraceEvent]) {
        if probe.kind != nil, let time = probe.time {
            if time < showsFrom {
                builder.skip(probe)
                return
            }
            if let cutover = handover?.cutover, time >= cutover {
                if handover!.mode == .counting && builder.continuesPostUnderWay(probe) {
                    builder.add(probe, to: &events)
                } else {
                    builder.skip(probe)
                }
                return
            }
        }
        if handover?.defers(probe) == true { return }
        builder.add(probe, to: &events)
    }

    private func fail(_ reason: String) {
        let shown = running
        stopped.withLock {
            wantedMode = shown
            runningProbes = [bpftrace]
            switchFailure = "the probes stay in \(shown.rawValue) mode: \(reason)"
        }
    }

    /// Starts bpftrace with `mode`'s program; it attaches while the running one goes on.
    private func startProgram(_ mode: ProbeMode, now: UInt64) throws(FoundationAttachError) -> ProbeHandover {
        guard let path = TrustedTools.bpftrace() else { throw FoundationAttachError("bpftrace is no longer trusted") }
        let errors = Self.temporaryFile()
        do throws(FoundationAttachError) {
            let (process, lines) = try Self.startBpftrace(path, program: programs[mode] ?? "", errors: errors)
            stopped.withLock { runningProbes.append(process) }
            return ProbeHandover(mode: mode, process: process, lines: lines, errors: errors, now: now)
        } catch {
            close(errors)
            throw error
        }
    }

    /// The old program's lines up to the cutover have had time to arrive: it is asked to end and
    /// what it still prints is read (its maps' last counts too, up to ``drainMilliseconds``) while
    /// the next one's are kept; then the next one runs, its lines shown from the cutover.
    private func handOver(
        order: inout ProbeLineOrder, exec: inout (at: UInt64, seen: UInt64)?, events: inout [TraceEvent],
        longLines: inout UInt64
    ) {
        guard let cutover = handover?.cutover else { return }
        if bpftrace.termination() == nil { kill(bpftrace.pid, SIGTERM) }
        let deadline = Self.monotonicNow() + Self.drainMilliseconds * 1_000_000
        var released: [ProbeLine] = []
        while !lines.ended && Self.monotonicNow() < deadline {
            handover!.read(now: Self.monotonicNow())
            guard let line = lines.next(timeoutMilliseconds: 20) else { continue }
            take(line, now: Self.monotonicNow(), order: &order, released: &released, exec: &exec)
        }
        order.releaseAll(into: &released)
        release(released, into: &events)
        counting.note(events)
        counting.releaseAll(builder: &builder, events: &events)
        if lines.skippedLongLines > longLines {
            builder.lose(lines.skippedLongLines - longLines, reason: "probe-line-too-long", to: &events)
        }
        // bpftrace's probes go on counting lines while it ends, lines it never prints: once its
        // lines were read a reorder hold past the cutover, those are all past it, none the stream's.
        if latestProbeTime < cutover + Self.reorderNanoseconds { builder.reconcile(to: &events) }
        bpftrace.terminate(graceMilliseconds: 500)
        lines.close()

        handover!.read(now: Self.monotonicNow())
        let mode = handover!.mode
        let next = handover!.takeOver()
        handover = nil
        builder.handOver(to: &events)
        counting.restart()
        showsFrom = cutover
        order = ProbeLineOrder(holdNanoseconds: Self.reorderNanoseconds)
        bpftrace = next.process
        lines = next.lines
        latestProbeTime = 0
        longLines = 0
        running = mode
        stopped.withLock {
            shownMode = mode
            runningProbes = [next.process]
        }
        released.removeAll()
        for line in next.kept {
            take(line, now: Self.monotonicNow(), order: &order, released: &released, exec: &exec)
        }
        release(released, into: &events)
        counting.note(events)
        if next.overflow > 0 { builder.lose(next.overflow, reason: "probe-queue-full", to: &events) }
    }
}
