package import NotifyFoundationProbe
package import NotifySystem
package import NotifyTraceViewer

/// A host whose processes are attached only when asked (Enter in the overview): attaching costs
/// the process something, so the overview lists them without opening a stream, and each row says
/// what attaching would find.
package protocol OnDemandHost: InspectionHost {
    /// What a row says while its process is not attached, from the last listing; nil if unknown.
    func notAttachedState(of pid: Int32) -> (threads: Int?, state: String)?
    /// What the overview says while no process is listed.
    var emptyMessage: String { get }
}

/// This machine's processes that map Foundation's library, attached through bpftrace's probes
/// (`notifytop --foundation` without `--pid`). Listing reads `/proc` only; each library's symbols
/// are read once per file (path and inode), through the process's mapping.
package final class FoundationHost: OnDemandHost {
    private struct Listed {
        var threads: Int?
        var readiness: FoundationReadiness
    }

    private let listed = LockedValue<[Int32: Listed]>([:])
    private let readinessByFile = LockedValue<[String: FoundationReadiness]>([:])
    private let sessions = LockedValue<[Int32: FoundationProbeSession]>([:])
    /// The mode each process's probes start in (`P` switches the attached one's).
    private let mode: ProbeMode

    package init(mode: ProbeMode = .counting) { self.mode = mode }

    package var name: String { "this host" }

    package var emptyMessage: String {
        "no process maps \(FoundationSymbols.libraryName) yet: start a Swift app that uses Foundation; its row appears here"
    }

    /// Every process that maps `libFoundationEssentials.so`, oldest first.
    package func inspectableProcesses() throws(HostFailure) -> HostListing {
        var processes: [InspectableProcess] = []
        var found: [Int32: Listed] = [:]
        for process in FoundationProcesses.list() {
            let readiness =
                readinessByFile.withLock { $0[process.libraryKey] }
                ?? {
                    let checked = FoundationReadiness.check(file: process.libraryFile, statically: false)
                    readinessByFile.withLock { $0[process.libraryKey] = checked }
                    return checked
                }()
            found[process.pid] = Listed(
                threads: FoundationProcesses.threadCount(pid: process.pid), readiness: readiness)
            processes.append(
                InspectableProcess(
                    pid: process.pid, socketPath: "", name: process.name,
                    uptimeSeconds: ProcessInfoReader.uptimeSeconds(of: process.pid)))
        }
        listed.withLock { $0 = found }
        return HostListing(
            directory: "processes that map \(FoundationSymbols.libraryName)",
            processes: processes.sorted { ($0.uptimeSeconds ?? 0) > ($1.uptimeSeconds ?? 0) })
    }

    /// Attaches the probes (bpftrace's start takes a few seconds) and reads what they see.
    package func open(_ process: InspectableProcess) throws(HostFailure) -> TraceReader {
        if let readiness = listed.withLock({ $0[process.pid]?.readiness }), !readiness.canAttach {
            throw HostFailure("pid \(process.pid) cannot be probed: \(readiness)")
        }
        let session: FoundationProbeSession
        do {
            session = try FoundationProbeSession(pid: process.pid, mode: mode)
        } catch {
            throw HostFailure(error.description)
        }
        sessions.withLock { $0[process.pid] = session }
        return TraceReader(source: .socket(session.stream), origin: "probes of pid \(process.pid)")
    }

    /// The probes attached to `pid`, if any.
    package func probes(of pid: Int32) -> FoundationProbeSession? { sessions.withLock { $0[pid] } }

    package func notAttachedState(of pid: Int32) -> (threads: Int?, state: String)? {
        guard let entry = listed.withLock({ $0[pid] }) else { return nil }
        let threads = entry.threads.map { ", \($0) thread\($0 == 1 ? "" : "s")" } ?? ""
        // Short enough to read whole at 120 columns; the row's "-" figures say it is not attached.
        return (entry.threads, "\(entry.readiness)\(threads)")
    }

    /// Stops every probe this host attached.
    package func close() {
        for session in sessions.withLock({ $0.values }) { session.stop() }
    }
}
