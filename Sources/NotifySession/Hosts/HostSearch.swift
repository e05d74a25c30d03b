import Foundation
import NotifySystem
import NotifyTraceViewer

/// ``Reattacher``'s look for a restarted process on another host, on a thread of its own: a
/// listing there is an ssh round trip (seconds when the host is gone), which the screen must not
/// wait for. One look runs at a time; what it found is taken by the next call.
final class HostSearch: @unchecked Sendable {  // `running` and `found` are only touched under `lock`
    private let lock = Lock()
    private var running = false
    private var found: Found?
    /// When the last look ended: looks start at most once a second, so that waiting for a restart
    /// costs the host one listing a second.
    private var lastEnd: Date?

    /// A reader on the restarted process and the process, handed from the looking thread.
    struct Found: @unchecked Sendable {  // the reader is used by one thread at a time: made there, read here
        let reader: TraceReader
        let process: InspectableProcess
    }

    /// The newest process called `name` (not `skipped`; only `only`, when given) that a finished
    /// look opened, if any; else starts a look unless one runs, and returns nil.
    func next(on host: any InspectionHost, named name: String, skipping skipped: Int32?, only: Int32? = nil)
        -> Found?
    {
        let start: Bool = lock.withLock {
            if found != nil || running { return false }
            if let lastEnd, Date().timeIntervalSince(lastEnd) < 1 { return false }
            running = true
            return true
        }
        if start {
            Thread.detachNewThread { [self] in
                var result: Found?
                if let listing = try? host.inspectableProcesses(),
                    let process = listing.processes.last(where: {
                        $0.name == name && $0.pid != skipped && (only == nil || $0.pid == only)
                    }),
                    let reader = try? host.open(process)
                {
                    result = Found(reader: reader, process: process)
                }
                lock.withLock {
                    found = result
                    running = false
                    lastEnd = Date()
                }
            }
            return nil
        }
        return lock.withLock {
            defer { found = nil }
            return found
        }
    }
}
