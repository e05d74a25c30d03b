package import NotifySystem
package import NotifyTraceViewer

/// This machine: the processes in this user's socket directory, attached to directly.
package final class LocalHost: InspectionHost {
    /// Where the processes put their sockets.
    package let directory: SocketDirectory

    package init(directory: SocketDirectory = .standard) {
        self.directory = directory
    }

    package var name: String { "this host" }

    /// Fails when the directory is not a private directory of this user.
    package func inspectableProcesses() throws(HostFailure) -> HostListing {
        if let problem = directory.problem { throw HostFailure(problem.description) }
        return HostListing(directory: directory.path, processes: directory.inspectableProcesses())
    }

    package func open(_ process: InspectableProcess) throws(HostFailure) -> TraceReader {
        do {
            return try TraceReader.connect(socketPath: process.socketPath)
        } catch {
            throw HostFailure(error.description)
        }
    }

    /// Nothing to stop: a local stream is the reader's own socket.
    package func close() {}
}
