import Foundation
import NotifyEvents
import NotifyKit

/// The background side of ``NotifyInspector``: accepts viewers, drains the ring, encodes lines once
/// and queues them to every viewer. One thread owns everything below `state`.
final class TraceExporter: @unchecked Sendable {  // `control` is locked; the rest belongs to the exporter thread
    private let center: NotifyCenter
    private let listener: UnixSocket
    private let socketPath: String
    private let ring: EventRing
    private let viewerBufferBytes: Int

    private struct Control {
        var stopReason: TraceEndReason?
        var stopped = false
        var viewerCount = 0
    }
    private let control = Locked(Control())
    private let finished = DispatchSemaphore(value: 0)

    // Exporter-thread state.
    private var viewers: [ViewerConnection] = []
    private var attachment: NotifyProbeAttachment?
    private var translator = TraceTranslator()
    private var spare: [NotifyEvent] = []
    private var lines: [TraceEvent] = []
    private var encoded: [UInt8] = []
    private var lineEnds: [Int] = []
    /// When lines last went out: a quiet stream gets a clock line a second after.
    private var lastLineAt: UInt64 = 0

    init(center: NotifyCenter, listener: UnixSocket, socketPath: String, ringCapacity: Int, viewerBufferBytes: Int) {
        self.center = center
        self.listener = listener
        self.socketPath = socketPath
        self.ring = EventRing(capacity: ringCapacity)
        self.viewerBufferBytes = viewerBufferBytes
    }

    var viewerCount: Int { control.read { $0.viewerCount } }

    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "notifytop-export"
        thread.start()
    }

    /// Asks the exporter to end every stream with `reason`, waits for it (at most a second), and
    /// removes the socket.
    func stop(reason: TraceEndReason) {
        let first = control.update { control -> Bool in
            guard control.stopReason == nil else { return false }
            control.stopReason = reason
            return true
        }
        guard first else { return }
        _ = finished.wait(timeout: .now() + 1)
        unlink(socketPath)
        ExitCleanup.unregister(self)
    }

    private func run() {
        while true {
            if let reason = control.read({ $0.stopReason }) {
                finish(reason: reason)
                return
            }
            acceptViewers()
            let moved = pump()
            sendClockLineIfQuiet(moved: moved)
            viewers.forEach { $0.flush() }
            for viewer in viewers where viewer.hasMissed {
                viewer.reportMissed { (translator.nextSequence(), MonotonicClock.now()) }
                viewer.flush()
            }
            let before = viewers.count
            viewers.removeAll { $0.isClosed }
            if viewers.count != before { viewersChanged() }
            if !moved {
                _ = waitForConnection(milliseconds: viewers.contains { $0.queuedByteCount > 0 } ? 1 : 2)
            }
        }
    }

    private func acceptViewers() {
        while let socket = listener.accept() {
            let viewer = ViewerConnection(socket: socket, maximumQueuedBytes: viewerBufferBytes)
            var bytes: [UInt8] = []
            TraceEncoder.encode(.header(makeHeader()), into: &bytes)
            if attachment == nil {
                // The first viewer: attaching makes the center put its live registrations in the ring.
                // A fresh translator (no stale definitions) that numbers on from the last one.
                translator = TraceTranslator(maximumObjects: translator.maximumObjects,
                                             lastSequence: translator.lastSequence)
                var threads: [TraceEvent] = []
                translator.introduceLiveThreads(at: MonotonicClock.now(), into: &threads)
                TraceEncoder.encode(threads, into: &bytes)
                attachment = center.attach(ring)
            } else {
                _ = pump()
                var threads: [TraceEvent] = []
                translator.introduceLiveThreads(at: MonotonicClock.now(), into: &threads)
                broadcast(threads)
                TraceEncoder.encode(translator.snapshot(), into: &bytes)
            }
            viewer.enqueueUnconditionally(bytes)
            viewers.append(viewer)
            viewersChanged()
        }
    }

    /// Moves events from the ring to the viewers; returns whether there were any.
    private func pump() -> Bool {
        let lost = ring.drain(swappingWith: &spare)
        guard attachment != nil else { return !spare.isEmpty }
        lines.removeAll(keepingCapacity: true)
        if lost > 0 {
            lines.append(.gap(TraceGap(seq: translator.nextSequence(), timestamp: MonotonicClock.now(),
                                       count: lost, reason: .bufferFull)))
        }
        for event in spare { translator.translate(event, into: &lines) }
        guard !lines.isEmpty else { return lost > 0 }
        broadcast(lines)
        return true
    }

    private func broadcast(_ lines: [TraceEvent]) {
        guard !viewers.isEmpty else { return }
        encoded.removeAll(keepingCapacity: true)
        lineEnds.removeAll(keepingCapacity: true)
        for line in lines {
            TraceEncoder.encode(line, into: &encoded)
            lineEnds.append(encoded.count)
        }
        var start = 0
        for end in lineEnds {
            let slice = encoded[start..<end]
            for viewer in viewers {
                viewer.enqueue(line: slice) { [self] in (translator.nextSequence(), MonotonicClock.now()) }
            }
            start = end
        }
    }

    private func viewersChanged() {
        let count = viewers.count
        control.update { $0.viewerCount = count }
        if count == 0, let attachment {
            attachment.detach()
            self.attachment = nil
            _ = ring.drain(swappingWith: &spare)
        }
    }

    private func finish(reason: TraceEndReason) {
        _ = pump()
        let end = TraceEvent.end(TraceEnd(seq: translator.nextSequence(), timestamp: MonotonicClock.now(), reason: reason))
        broadcast([end])
        let deadline = MonotonicClock.now() + 500_000_000
        while viewers.contains(where: { !$0.isClosed && $0.queuedByteCount > 0 }) && MonotonicClock.now() < deadline {
            viewers.forEach { $0.flush() }
            usleep(1_000)
        }
        viewers.forEach { $0.close() }
        viewers.removeAll()
        attachment?.detach()
        attachment = nil
        listener.close()
        control.update { $0.viewerCount = 0 }
    }

    /// A `tick` line once a second while nothing else is sent, so viewers' models move through
    /// quiet periods on the stream's own clock. Only to viewers that have read everything: one
    /// still behind has lines to read, and a dropped tick must not count as a lost event.
    private func sendClockLineIfQuiet(moved: Bool) {
        let now = MonotonicClock.now()
        if moved || attachment == nil || viewers.isEmpty {
            lastLineAt = now
            return
        }
        guard now - min(now, lastLineAt) >= 1_000_000_000 else { return }
        lastLineAt = now
        let idle = viewers.filter { $0.queuedByteCount == 0 && !$0.hasMissed }
        guard !idle.isEmpty else { return }
        var line: [UInt8] = []
        TraceEncoder.encode(.tick(TraceTick(seq: translator.nextSequence(), timestamp: now)), into: &line)
        for viewer in idle {
            viewer.enqueue(line: line[...]) { [self] in (translator.nextSequence(), MonotonicClock.now()) }
        }
    }

    private func waitForConnection(milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, milliseconds) > 0
    }

    private func makeHeader() -> TraceHeader {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let mono = MonotonicClock.now()
        return TraceHeader(
            pid: getpid(), process: ProcessInfoReader.name(of: getpid()), center: center.label,
            clockMono: mono, clockWall: UInt64(wall.tv_sec) * 1_000_000_000 + UInt64(wall.tv_nsec),
            producer: "NotifyKit \(NotifyTraceVersion.producer)")
    }
}

/// The version this library writes into trace headers.
public enum NotifyTraceVersion {
    public static let producer = "0.1.0"
}
