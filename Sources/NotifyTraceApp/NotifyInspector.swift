import Foundation
import NotifyWire
public import Logging
public import NotifyKit
@_exported public import NotifySystem

/// Makes a process inspectable: notifytop attaches over a Unix socket and receives the events of
/// every `NotifyCenter` of the process as JSON Lines.
///
/// ```swift
/// let inspector = try NotifyInspector.start(center: .default)
/// print("attach with: notifytop --pid \(getpid())   (\(inspector.socketPath))")
/// ```
///
/// Or, with no code change, `NOTIFYTOP=1` in the environment and one call at start-up to
/// ``startIfRequested(center:)``.
///
/// The socket is `$XDG_RUNTIME_DIR/notifytop/<pid>.sock` (else `/tmp/notifytop-<uid>/<pid>.sock`),
/// mode 0600 in a 0700 directory, removed when the inspector stops or the process exits. Several
/// viewers may attach (up to ``ViewerLimits/maximumViewers``); each first receives a header and a snapshot of every live registration and
/// thread, with the process's history (posts and deliveries per thread and name since the center
/// was made, each registration's deliveries, recent checkpoints and each site's growth), then the
/// live events. The app is never blocked by a viewer: while none is attached the
/// center runs unprobed; while one is, each posting thread writes its events into a bounded ring
/// of its own, which a background exporter drains, and anything a slow viewer cannot take is counted and reported to it as a `gap`.
/// ``ViewerLimits`` bounds how many viewers attach and the memory they may hold.
///
/// Every center is streamed, made before or after the inspector started (an app's private
/// centers, a test suite's one per test), each under its label; the centers passed to `start`
/// come first and are kept alive. ``OtherCenters`` leaves others out by label. At most 256 centers
/// are streamed at once: a center that ends frees its place, and one made while all are taken is
/// not streamed, which viewers see as a `center-limit` loss. A center that deallocates with
/// observers still registered ends each of them (reason `center-ended`).
public final class NotifyInspector: Sendable {
    /// Where viewers connect.
    public let socketPath: String
    private let exporter: TraceExporter

    private init(socketPath: String, exporter: TraceExporter) {
        self.socketPath = socketPath
        self.exporter = exporter
    }

    /// Which centers an inspector streams beside those it is started with.
    ///
    /// A center one inspector streams is not in the history another gives its late viewers: an
    /// app runs one inspector, and a test process that runs several gives each its own centers
    /// (``none``, or ``labeled(prefix:except:)``).
    public struct OtherCenters: Sendable, Hashable {
        private var excludedLabels: Set<String> = []
        private var labelPrefix: String?
        private var streamsAny = true

        /// Every other center of the process, made before or after the inspector started.
        public static let all = OtherCenters()
        /// None: only the centers the inspector is started with.
        public static let none = OtherCenters(streamsAny: false)

        /// Every other center but those whose label is one of `labels`.
        public static func all(except labels: Set<String>) -> OtherCenters {
            OtherCenters(excludedLabels: labels)
        }

        /// The other centers whose label starts with `prefix`, such as a subsystem's
        /// (`"sync."`) or one test's, but those whose label is one of `labels`.
        public static func labeled(prefix: String, except labels: Set<String> = []) -> OtherCenters {
            OtherCenters(excludedLabels: labels, labelPrefix: prefix)
        }

        /// Whether a center labelled `label`, not one started with, is left out.
        func leavesOut(_ label: String) -> Bool {
            guard streamsAny else { return true }
            if let labelPrefix, !label.hasPrefix(labelPrefix) { return true }
            return excludedLabels.contains(label)
        }
    }

    /// Starts listening for viewers of `center` and, by default, of every other center.
    ///
    /// A process has one inspector: starting a second in the same socket directory while one runs
    /// throws (its socket would take the first one's path). To name several centers first, start one
    /// inspector with all of them: ``start(centers:others:directory:ringCapacity:viewerBufferBytes:limits:logger:)``.
    ///
    /// - Parameters:
    ///   - center: The center the header names, index 0 in the stream.
    ///   - others: The process's other centers streamed too: ``OtherCenters/all`` by default.
    ///   - directory: Where the socket is made; the standard place by default.
    ///   - ringCapacity: Events each posting thread buffers between exporter passes (every ~2 ms);
    ///     beyond it, that thread's events are counted as lost.
    ///   - viewerBufferBytes: Bytes queued for one viewer at most; overrides `limits`.
    ///   - limits: What viewers may cost; by default ``ViewerLimits/fromEnvironment(_:)``.
    ///   - logger: Where the inspector logs its own events (listening, viewers attached, refused,
    ///     cut off, descriptors running out, stopped), from its own thread; none by default.
    public static func start(
        center: NotifyCenter = .default, others: OtherCenters = .all, directory: SocketDirectory = .standard,
        ringCapacity: Int = 1 << 14, viewerBufferBytes: Int? = nil, limits: ViewerLimits? = nil,
        logger: Logger? = nil
    ) throws(TraceError) -> NotifyInspector {
        try start(
            centers: [center], others: others, directory: directory, ringCapacity: ringCapacity,
            viewerBufferBytes: viewerBufferBytes, limits: limits, logger: logger)
    }

    /// Starts listening for viewers of several centers named first, and by default of every other,
    /// streamed as one: each registration and post
    /// says which center it belongs to (viewers show it, and `explain` tells an observer registered
    /// on another center than the post's), post ids are unique across them, and the events of all
    /// come in the order they happened.
    ///
    /// ```swift
    /// let inspector = try NotifyInspector.start(centers: [.default, syncCenter])
    /// ```
    ///
    /// - Parameters:
    ///   - centers: The centers the header lists, in its order, at most 256, each once; viewers
    ///     name each by its label. They are streamed whatever `others` says.
    ///   - others: The process's other centers streamed too: ``OtherCenters/all`` by default.
    ///   - directory: Where the socket is made; the standard place by default.
    ///   - ringCapacity: Events each posting thread buffers between exporter passes.
    ///   - viewerBufferBytes: Bytes queued for one viewer at most; overrides `limits`.
    ///   - limits: What viewers may cost; by default ``ViewerLimits/fromEnvironment(_:)``.
    ///   - logger: Where the inspector logs its own events, from its own thread; none by default.
    public static func start(
        centers: [NotifyCenter], others: OtherCenters = .all, directory: SocketDirectory = .standard,
        ringCapacity: Int = 1 << 14, viewerBufferBytes: Int? = nil, limits: ViewerLimits? = nil,
        logger: Logger? = nil
    ) throws(TraceError) -> NotifyInspector {
        var limits = if let limits { limits } else { try ViewerLimits.fromEnvironment() }
        if let viewerBufferBytes { limits.viewerBufferBytes = max(4096, viewerBufferBytes) }
        return try start(
            centers: centers, others: others, directory: directory, ringCapacity: ringCapacity, limits: limits,
            logger: logger, accept: { $0.acceptConnection() })
    }

    /// The most centers one inspector streams at once: a record names its center in one byte.
    static let maximumCenters = 256

    /// As the public `start`, with the call that takes one connection replaceable.
    static func start(
        center: NotifyCenter, others: OtherCenters = .none, directory: SocketDirectory, ringCapacity: Int,
        limits: ViewerLimits, logger: Logger? = nil, accept: @escaping (UnixSocket) -> UnixSocket.AcceptResult
    ) throws(TraceError) -> NotifyInspector {
        try start(
            centers: [center], others: others, directory: directory, ringCapacity: ringCapacity, limits: limits,
            logger: logger, accept: accept)
    }

    /// As the public `start(centers:)`, with the call that takes one connection replaceable.
    static func start(
        centers: [NotifyCenter], others: OtherCenters = .none, directory: SocketDirectory, ringCapacity: Int,
        limits: ViewerLimits, logger: Logger? = nil, accept: @escaping (UnixSocket) -> UnixSocket.AcceptResult
    ) throws(TraceError) -> NotifyInspector {
        guard !centers.isEmpty else { throw .invalid("no center to inspect: pass at least one") }
        guard centers.count <= maximumCenters else {
            throw .invalid("\(centers.count) centers: one inspector streams at most \(maximumCenters)")
        }
        guard Set(centers).count == centers.count else {
            throw .invalid("a center is listed twice: list each center once")
        }
        try directory.prepare()
        _ = directory.inspectableProcesses()  // removes sockets of processes that are gone
        let path = directory.socketPath(for: getpid())
        // A process has one socket, so one stream: a second inspector would take the first one's
        // path from under it, and viewers would see one inspector's centers or the other's.
        guard claimedPaths.withLock({ $0.insert(path).inserted }) else {
            throw .invalid(
                "this process already has an inspector listening at \(path): a process has one inspector; "
                    + "stop that one first, or start one with every center (start(centers:))")
        }
        let listener: UnixSocket
        do {
            listener = try UnixSocket.listen(at: path)
        } catch {
            releaseClaim(on: path)
            throw error
        }
        let exporter = TraceExporter(
            centers: centers, others: others, listener: listener, socketPath: path, ringCapacity: ringCapacity,
            limits: limits, logger: logger, accept: accept)
        ExitCleanup.register(exporter)
        exporter.start()
        return NotifyInspector(socketPath: path, exporter: exporter)
    }

    /// Socket paths of the inspectors running in this process.
    private static let claimedPaths = LockedValue<Set<String>>([])

    /// Lets another inspector listen at `path`, once the one there has stopped.
    static func releaseClaim(on path: String) {
        _ = claimedPaths.withLock { $0.remove(path) }
    }

    /// Starts an inspector when the environment has `NOTIFYTOP=1`; returns nil otherwise, or when
    /// the socket cannot be created (the reason is printed to standard error).
    public static func startIfRequested(center: NotifyCenter = .default) -> NotifyInspector? {
        guard ProcessInfo.processInfo.environment["NOTIFYTOP"] == "1" else { return nil }
        do {
            return try start(center: center)
        } catch {
            FileHandle.standardError.write(Data("notifytop: inspector not started: \(error)\n".utf8))
            return nil
        }
    }

    /// The number of viewers attached now.
    public var viewerCount: Int { exporter.viewerCount }

    /// The most bytes queued for all viewers together at one time.
    var peakQueuedBytes: Int { exporter.peakQueuedBytes }

    /// Whether a viewer has missed an event because it was behind, since the inspector started.
    var viewerHasMissed: Bool { exporter.viewerHasMissed }

    /// Sends viewers an end-of-stream line, disconnects them and removes the socket.
    public func stop() {
        exporter.stop(reason: .inspectorStopped)
    }
}

/// Removes sockets when the process exits normally, telling attached viewers it ended.
enum ExitCleanup {
    private static let exporters = LockedValue<[TraceExporter]>([])
    private static let installed: Void = {
        atexit {
            let registered = ExitCleanup.exporters.withLock { exporters in
                defer { exporters = [] }
                return exporters
            }
            registered.forEach { $0.stop(reason: .processExit) }
        }
    }()

    static func register(_ exporter: TraceExporter) {
        _ = installed
        exporters.withLock { $0.append(exporter) }
    }

    static func unregister(_ exporter: TraceExporter) {
        exporters.withLock { $0.removeAll { $0 === exporter } }
    }
}
