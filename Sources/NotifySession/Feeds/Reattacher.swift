import Foundation
package import NotifySystem
package import NotifyTraceViewer

/// Finds the target again after it exits: the next process with the same name in the socket
/// directory (`--pid` and auto-discovery), or the same socket path answering again (`--socket`).
/// After the process cut the viewer off for falling behind, it connects to that same process again.
///
/// Why by name: a restarted app gets a new pid, and its name is the one thing the user would
/// recognise it by. Why polling the directory: it costs one `readdir` and a few small `/proc`
/// reads a few times a second, needs no inotify, and also works on forwarded sockets.
package struct Reattacher {
    /// What counts as "the same target".
    package enum Match: Sendable, Equatable {
        /// A process whose kernel name (`/proc/<pid>/comm`) is this.
        case processName(String)
        /// Whatever listens on this socket path.
        case socket(String)
    }

    /// How the target is recognised.
    package let match: Match
    /// Where inspectable processes put their sockets.
    package let directory: SocketDirectory
    /// The pid attached to last, when known: not taken again after it ended by exiting.
    package private(set) var lastPid: Int32?
    /// `--record FILE`: later attachments are recorded to `FILE-2.ndjson`, `FILE-3.ndjson`, …
    package let recordPath: String?
    /// Attachments so far, the first included.
    package private(set) var attachments = 1
    /// Whether it follows the target to a new process once it exits; else (`--no-reattach`,
    /// `--demo`) it only connects again to the same process after a cut-off.
    package let followsRestarts: Bool
    private let connect: (String) throws(TraceError) -> TraceReader
    /// Another host to look on (`--ssh`) instead of `directory`, for ``Match/processName(_:)``.
    package let host: (any InspectionHost)?
    private let hostSearch = HostSearch()

    /// Creates a reattacher; `connect` opens a reader on a socket path (replaceable for tests).
    package init(
        match: Match, directory: SocketDirectory = .standard, lastPid: Int32? = nil, recordPath: String? = nil,
        connect: @escaping (String) throws(TraceError) -> TraceReader = { path throws(TraceError) in
            try TraceReader.connect(socketPath: path)
        },
        host: (any InspectionHost)? = nil, followsRestarts: Bool = true
    ) {
        self.host = host
        self.followsRestarts = followsRestarts
        self.match = match
        self.directory = directory
        self.lastPid = lastPid
        self.recordPath = recordPath
        self.connect = connect
    }

    /// Whether a stream that ended this way may come back. A failed read (an unknown version,
    /// say) would fail again, so it ends the session.
    package static func mayRestart(after end: TraceStreamEnd) -> Bool {
        switch end {
        case .processExited, .disconnected, .producerStopped, .cutOff: true
        case .endOfFile, .failed: false
        }
    }

    /// Whether the process attached to last still runs: nil when that cannot be told from here
    /// (another host, or a socket whose process is not known).
    package func processRuns() -> Bool? {
        guard host == nil, let lastPid else { return nil }
        return Self.runs(lastPid)
    }

    /// Alive and not a zombie: `kill(pid, 0)` alone also answers for a process that has exited
    /// and not been reaped.
    static func runs(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        // After "pid (comm) ", the state letter; comm may itself hold parentheses.
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state != "Z" && state != "X"
    }

    /// One look for the target: a connected reader, what is known of its process, and a note for
    /// the actions log (where `--record` goes on); nil to look again later. After a process exit, the pid that exited is skipped (its socket may
    /// linger for a moment); after the inspector alone stopped, the same pid may come back. With
    /// `sameProcess` (after a cut-off) only the pid attached to last is taken, when it is known.
    package mutating func attempt(after end: TraceStreamEnd, sameProcess: Bool = false) -> (
        reader: TraceReader, process: InspectableProcess?, note: String?
    )? {
        let reader: TraceReader
        let process: InspectableProcess?
        let only = sameProcess ? lastPid : nil
        if let host, case .processName(let name) = match {
            guard
                let found = hostSearch.next(
                    on: host, named: name, skipping: Self.isExit(end) ? lastPid : nil, only: only)
            else { return nil }
            (reader, process) = (found.reader, found.process)
        } else {
            let candidate: (path: String, process: InspectableProcess?)
            switch match {
            case .socket(let path):
                candidate = (path, nil)
            case .processName(let name):
                let skipped = Self.isExit(end) ? lastPid : nil
                guard
                    let process = directory.inspectableProcesses().last(where: {
                        $0.name == name && $0.pid != skipped && (only == nil || $0.pid == only)
                    })
                else { return nil }
                candidate = (process.socketPath, process)
            }
            guard let connected = try? connect(candidate.path) else { return nil }
            (reader, process) = (connected, candidate.process)
        }
        attachments += 1
        if let pid = process?.pid { lastPid = pid }
        var note: String?
        if let recordPath {
            // The next free number from this attachment's on: a file already there (an earlier
            // session's run, a planted link) is passed over, never replaced.
            do {
                let recorder = try TraceRecorder.firstFree(from: attachments) { Self.numbered(recordPath, $0) }
                reader.recorder = recorder
                note = "recording to \(recorder.path)"
            } catch {
                note = "cannot record to \(Self.numbered(recordPath, attachments)): \(error)"
            }
        }
        return (reader, process, note)
    }

    private static func isExit(_ end: TraceStreamEnd) -> Bool {
        switch end {
        case .processExited, .disconnected: true
        default: false
        }
    }

    /// `run.ndjson`, 2 → `run-2.ndjson`; `trace`, 3 → `trace-3`.
    static func numbered(_ path: String, _ number: Int) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[slash...].lastIndex(of: "."), dot != slash else { return path + "-\(number)" }
        return String(path[..<dot]) + "-\(number)" + String(path[dot...])
    }
}
