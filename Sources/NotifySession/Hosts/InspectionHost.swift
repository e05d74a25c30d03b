package import NotifySystem
package import NotifyTraceViewer

/// A machine whose inspectable processes notifytop lists and attaches to: this one
/// (``LocalHost``) or one reached through OpenSSH (``SSHHost``). A view of several processes can
/// use the same two calls on either, from any thread.
package protocol InspectionHost: AnyObject, Sendable {
    /// How messages name the host ("this host", `user@staging:2222`).
    var name: String { get }
    /// The host's inspectable processes, oldest first, and where they were looked for.
    func inspectableProcesses() throws(HostFailure) -> HostListing
    /// A live trace stream from one of them.
    func open(_ process: InspectableProcess) throws(HostFailure) -> TraceReader
    /// Stops whatever the host started for its streams (ssh children); their readers then end.
    func close()
}

/// What a host's socket directory holds.
package struct HostListing: Sendable, Equatable {
    /// The socket directory, as messages name it (on a remote host: "DIR on HOST").
    package var directory: String
    /// The processes, oldest first.
    package var processes: [InspectableProcess]

    package init(directory: String, processes: [InspectableProcess]) {
        self.directory = directory
        self.processes = processes
    }
}

/// Why a host could not list or open: one line for the user.
package struct HostFailure: Error, Equatable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
