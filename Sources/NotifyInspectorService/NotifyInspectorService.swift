public import Logging
public import NotifyKit
public import NotifyTraceApp
public import ServiceLifecycle

/// The inspector as a swift-service-lifecycle `Service`: it listens for notifytop while the
/// service group runs, and stops (telling attached viewers the stream ended) when the group shuts
/// down gracefully, in the order the group stops its services.
///
/// ```swift
/// let inspector = NotifyInspectorService(logger: logger)
/// let group = ServiceGroup(services: [server, inspector], logger: logger)
/// try await group.run()
/// ```
public struct NotifyInspectorService: Service {
    private let centers: [NotifyCenter]
    private let others: NotifyInspector.OtherCenters
    private let directory: SocketDirectory
    private let logger: Logger?

    /// A service inspecting `centers` (named first in the stream) and, by default, every other
    /// center of the process.
    ///
    /// - Parameters:
    ///   - centers: The centers the stream names first.
    ///   - others: The process's other centers streamed too.
    ///   - directory: Where the socket is made; the standard place by default.
    ///   - logger: Where the inspector logs its own events; none by default.
    public init(
        centers: [NotifyCenter] = [.default], others: NotifyInspector.OtherCenters = .all,
        directory: SocketDirectory = .standard, logger: Logger? = nil
    ) {
        self.centers = centers
        self.others = others
        self.directory = directory
        self.logger = logger
    }

    /// Starts the inspector, waits for the group's graceful shutdown (or cancellation), then stops it.
    ///
    /// - Throws: The inspector's start error (its socket directory cannot be used, or the process
    ///   already runs an inspector).
    public func run() async throws {
        let inspector = try NotifyInspector.start(
            centers: centers, others: others, directory: directory, logger: logger)
        // Cancellation ends the wait as a shutdown does: either way the inspector stops.
        try? await gracefulShutdown()
        inspector.stop()
    }
}
