import Foundation
import InMemoryLogging
import Logging
import NotifyInspectorService
import NotifyKit
import NotifySystem
import NotifyTestSupport
@testable import NotifyTraceApp
import NotifyTraceViewer
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing

private let ping = Notification.Name("inspector-logging.ping")

/// The inspector tells its operator, through the app's swift-log logger, what happens to viewers:
/// attached, refused (and why), cut off (and why), descriptors running out; and it runs as a
/// swift-service-lifecycle service that stops with its group.
@Suite(.serialized) struct InspectorLoggingTests {
    private static func logger(_ handler: InMemoryLogHandler) -> Logger {
        var logger = Logger(label: "test.inspector") { _ in handler }
        logger.logLevel = .info
        return logger
    }

    private static func messages(_ handler: InMemoryLogHandler, at level: Logger.Level? = nil) -> [String] {
        handler.entries.filter { level == nil || $0.level == level }.map(\.message.description)
    }

    @Test("listening, a viewer attached and detached, and the stop are logged at info")
    func lifecycle() throws {
        let temporary = TemporaryDirectory()
        let handler = InMemoryLogHandler()
        let inspector = try NotifyInspector.start(
            center: NotifyCenter(), others: .none, directory: temporary.socketDirectory,
            limits: ViewerLimits(), logger: Self.logger(handler))
        let viewer = try UnixSocket.connect(to: inspector.socketPath)
        #expect(eventually { inspector.viewerCount == 1 })
        viewer.close()
        #expect(eventually { Self.messages(handler).contains("notifytop viewer detached") })
        inspector.stop()
        let messages = Self.messages(handler, at: .info)
        #expect(
            messages == [
                "notifytop inspector listening", "notifytop viewer attached", "notifytop viewer detached",
                "notifytop inspector stopped",
            ])
        let listening = try #require(handler.entries.first)
        #expect(listening.metadata["socket"] == "\(inspector.socketPath)")
        #expect(handler.entries.last?.metadata["reason"] == "inspector-stopped")
    }

    @Test("a viewer beyond the limit is refused with a warning naming the reason")
    func refusedViewer() throws {
        let temporary = TemporaryDirectory()
        let handler = InMemoryLogHandler()
        let inspector = try NotifyInspector.start(
            center: NotifyCenter(), others: .none, directory: temporary.socketDirectory,
            limits: ViewerLimits(maximumViewers: 1), logger: Self.logger(handler))
        defer { inspector.stop() }
        let first = try TraceReader.connect(socketPath: inspector.socketPath)
        #expect(eventually { inspector.viewerCount == 1 })
        let second = try TraceReader.connect(socketPath: inspector.socketPath)
        #expect(eventually { Self.messages(handler, at: .warning).contains("notifytop viewer refused") })
        let refusal = try #require(handler.entries.first { $0.message.description == "notifytop viewer refused" })
        #expect(refusal.metadata["reason"] == "viewer-limit")
        #expect(refusal.metadata["maximum-viewers"] == "1")
        withExtendedLifetime((first, second)) {}
    }

    @Test("descriptors running out is an error naming errno and the retry; the viewer is taken once they are back")
    func acceptFailure() throws {
        let temporary = TemporaryDirectory()
        let handler = InMemoryLogHandler()
        let failing = LockedValue(true)
        let inspector = try NotifyInspector.start(
            center: NotifyCenter(), others: .none, directory: temporary.socketDirectory, ringCapacity: 1024,
            limits: ViewerLimits(), logger: Self.logger(handler),
            accept: { listener in failing.withLock { $0 } ? .failed(EMFILE) : listener.acceptConnection() })
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        #expect(eventually { Self.messages(handler, at: .error).contains("notifytop viewer not accepted; retrying") })
        let failure = try #require(handler.entries.first { $0.level == .error })
        #expect(failure.metadata["errno"] == "\(EMFILE)")
        #expect(failure.metadata["retry-in-ms"] == "10")
        failing.withLock { $0 = false }
        #expect(eventually { inspector.viewerCount == 1 })
        withExtendedLifetime(reader) {}
    }

    @Test("a viewer that stops reading is cut off with a warning naming the cause")
    func cutOffViewer() throws {
        let temporary = TemporaryDirectory()
        let handler = InMemoryLogHandler()
        let center = NotifyCenter()
        let token = center.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        defer { token.cancel() }
        let inspector = try NotifyInspector.start(
            center: center, others: .none, directory: temporary.socketDirectory, ringCapacity: 1 << 16,
            limits: ViewerLimits(viewerBufferBytes: 64 * 1024, stalledViewerSeconds: 0.2),
            logger: Self.logger(handler))
        defer { inspector.stop() }
        // Connected, and never read.
        let socket = try UnixSocket.connect(to: inspector.socketPath)
        defer { socket.close() }
        #expect(eventually { inspector.viewerCount == 1 })
        let posters = Posters(center, ping, threads: 1, pause: 200)
        defer { posters.stop() }
        #expect(eventually(seconds: 30) { Self.messages(handler, at: .warning).contains("notifytop viewer cut off") })
        let cut = try #require(handler.entries.first { $0.message.description == "notifytop viewer cut off" })
        #expect(["stalled", "over-its-share"].contains(cut.metadata["cause"]?.description ?? ""))
    }

    @Test("as a service, the inspector listens while its group runs and stops at the graceful shutdown")
    func service() async throws {
        let temporary = TemporaryDirectory()
        let handler = InMemoryLogHandler()
        let socketPath = temporary.socketDirectory.socketPath(for: getpid())
        try await testGracefulShutdown { trigger in
            let service = NotifyInspectorService(
                centers: [NotifyCenter()], others: .none, directory: temporary.socketDirectory,
                logger: Self.logger(handler))
            let running = Task { try await service.run() }
            #expect(await eventually { FileManager.default.fileExists(atPath: socketPath) })
            trigger.triggerGracefulShutdown()
            try await running.value
        }
        #expect(!FileManager.default.fileExists(atPath: socketPath))
        #expect(Self.messages(handler, at: .info).last == "notifytop inspector stopped")
    }
}
