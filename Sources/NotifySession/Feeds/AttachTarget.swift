package import NotifySystem
#if canImport(Glibc)
import Glibc
#endif

/// Which process to attach to: `--socket`, `--pid`, or the only inspectable process.
package enum AttachTarget {
    /// Why no process was chosen.
    package enum Failure: Error, CustomStringConvertible {
        /// Nothing to attach to.
        case none(String)
        /// More than one candidate; the user must choose.
        case ambiguous([InspectableProcess])
        /// `--pid` named a process without a socket.
        case noSuchProcess(Int32, [InspectableProcess])
        /// `--pid` named a process that does not exist (it exited, or the number is wrong).
        case notRunning(Int32, [InspectableProcess])
        /// The socket directory is not a private directory of this user.
        case unsafeDirectory(String)

        /// The message, with the list of candidates when there are some.
        package var description: String {
            switch self {
            case .none(let directory):
                "no inspectable process found in \(directory)\n"
                    + "start your app with NOTIFYTOP=1 (and NotifyInspector.startIfRequested()), or try: notifytop --demo"
            case .ambiguous(let processes):
                "several processes can be inspected; choose one with --pid:\n" + AttachTarget.table(processes)
            case .noSuchProcess(let pid, let processes):
                "process \(pid) is not inspectable (start it with NOTIFYTOP=1)"
                    + (processes.isEmpty ? "" : "; these are:\n" + AttachTarget.table(processes))
            case .notRunning(let pid, let processes):
                "no such process \(pid)"
                    + (processes.isEmpty ? "" : "; these can be inspected:\n" + AttachTarget.table(processes))
            case .unsafeDirectory(let problem):
                problem
            }
        }
    }

    /// The socket path to connect to, and the process when known.
    package static func resolve(
        pid: Int32?, socket: String?, directory: SocketDirectory = .standard
    ) throws(Failure) -> (socket: String, process: InspectableProcess?) {
        if let socket { return (socket, nil) }
        if let problem = directory.problem { throw .unsafeDirectory(problem.description) }
        let process = try choose(
            pid: pid, from: HostListing(directory: directory.path, processes: directory.inspectableProcesses()),
            isRunning: isRunning)
        return (process.socketPath, process)
    }

    /// The process `--pid` names in a host's listing, or its only process when there is no `--pid`.
    /// `isRunning` tells a pid that names no process from one without a socket, where it can be
    /// asked (this machine's processes; not a remote host's).
    package static func choose(
        pid: Int32?, from listing: HostListing, isRunning: ((Int32) -> Bool)? = nil
    ) throws(Failure) -> InspectableProcess {
        let processes = listing.processes
        if let pid {
            guard let process = processes.first(where: { $0.pid == pid }) else {
                if let isRunning, !isRunning(pid) { throw .notRunning(pid, processes) }
                throw .noSuchProcess(pid, processes)
            }
            return process
        }
        switch processes.count {
        case 0: throw .none(listing.directory)
        case 1: return processes[0]
        default: throw .ambiguous(processes)
        }
    }

    /// Whether a process with this pid exists on this machine (one of another user counts).
    package static func isRunning(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }

    /// `--list`: one line per inspectable process.
    package static func table(_ processes: [InspectableProcess]) -> String {
        var lines = ["    PID  UPTIME  NAME             SOCKET"]
        for process in processes {
            let uptime = process.uptimeSeconds.map { "\(Int($0))s" } ?? "?"
            let pid = String(process.pid)
            lines.append(
                String(repeating: " ", count: max(0, 7 - pid.count)) + pid + "  "
                    + uptime.padding(6) + "  " + process.name.padding(15) + "  " + process.socketPath)
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
