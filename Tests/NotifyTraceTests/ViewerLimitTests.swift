import Foundation
import NotifyTestSupport
import NotifyWire
import NotifyKit
@testable import NotifySystem
@testable import NotifyTraceApp
@testable import NotifyTraceViewer
import Testing

private let ping = Notification.Name("limits.ping")

/// Viewers cannot exhaust the app: their number, their memory and their descriptors are bounded.
@Suite("Viewer limits", .serialized, .timeLimit(.minutes(10)))
struct ViewerLimitTests {
    /// Everything a socket yields until its peer closes it, or nil after `seconds`.
    private func readUntilClosed(_ socket: UnixSocket, seconds: Double = 10) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            guard let count = buffer.withUnsafeMutableBytes({ socket.read(into: $0, timeoutMilliseconds: 20) }) else {
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes += buffer.prefix(count)
        }
        return nil
    }

    @Test(
        "300 viewers that never read: extra ones refused with an end line, memory stays under the cap, stalled ones cut off, a reading viewer loses nothing"
    )
    func hostileViewers() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let limits = ViewerLimits(
            maximumViewers: 8, viewerBufferBytes: 1 << 20, totalBufferBytes: 4 << 20,
            stalledViewerSeconds: 0.5)
        let inspector = try NotifyInspector.start(
            center: center, others: .none, directory: temporary.socketDirectory, ringCapacity: 1 << 16,
            limits: limits, accept: { $0.acceptConnection() })
        let healthy = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath))
        #expect(eventually { inspector.viewerCount == 1 })
        let stalled = try (0..<300).map { _ in
            try UnixSocket.connect(to: inspector.socketPath, timeoutMilliseconds: 10_000)
        }
        #expect(eventually { inspector.viewerCount == 8 })
        let posts = 30_000
        for batch in 0..<(posts / 1_000) {
            for _ in 0..<1_000 { center.post(name: ping) }
            // The reading viewer keeps up, so anything it loses is what the others cost it.
            #expect(eventually { healthy.postCount == (batch + 1) * 1_000 })
        }
        // Stalled viewers are cut off and their descriptors closed.
        #expect(eventually { inspector.viewerCount == 1 })
        #expect(inspector.peakQueuedBytes <= limits.totalBufferBytes)
        let replies = stalled.map { readUntilClosed($0) }
        #expect(replies.allSatisfy { $0 != nil })
        #expect(replies.filter { $0?.contains(#""reason":"viewer-limit""#) == true }.count == 300 - 7)
        inspector.stop()
        let account = StreamAccount(healthy.finish())
        #expect(account.posts == posts)
        #expect(account.lost == 0)
        #expect(account.end?.reason == .inspectorStopped)
    }

    @Test("when accept finds no free descriptor the exporter backs off instead of spinning, then attaches the viewer")
    func acceptBacksOffOnEMFILE() throws {
        let temporary = TemporaryDirectory()
        let calls = LockedValue(0)
        let failing = LockedValue(true)
        let inspector = try NotifyInspector.start(
            center: NotifyCenter(), others: .none, directory: temporary.socketDirectory, ringCapacity: 1024,
            limits: ViewerLimits(),
            accept: { listener in
                calls.withLock { $0 += 1 }
                return failing.withLock { $0 } ? .failed(EMFILE) : listener.acceptConnection()
            })
        defer { inspector.stop() }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        #expect(eventually { calls.withLock { $0 } > 0 })
        let before = calls.withLock { $0 }
        usleep(1_000_000)  // a window to count attempts in, not a wait for a result
        let during = calls.withLock { $0 } - before
        // A loop on the readable listener makes thousands of attempts a second; backing off, a few.
        #expect(during < 40)
        failing.withLock { $0 = false }
        #expect(eventually { inspector.viewerCount == 1 })
        _ = reader.read(until: { _ in true }, seconds: 5)
        #expect(reader.header != nil)
    }

    @Test("connecting to a socket whose process never accepts fails after the timeout with one line")
    func connectTimesOut() throws {
        let temporary = TemporaryDirectory()
        try temporary.socketDirectory.prepare()
        let path = temporary.socketDirectory.socketPath(for: 1)
        let listener = try UnixSocket.listen(at: path, backlog: 0)
        var waiting: [UnixSocket] = []
        var failure: TraceError?
        for _ in 0..<64 {
            do {
                waiting.append(try UnixSocket.connect(to: path, timeoutMilliseconds: 200))
            } catch {
                failure = error
                break
            }
        }
        #expect(waiting.count >= 1)
        #expect(failure?.description == "connect \(path): the process did not accept within 200 ms")
        listener.close()
    }

    @Test("viewers admitted faster than the admission rate are turned away with an end line")
    func admissionRate() throws {
        let temporary = TemporaryDirectory()
        let inspector = try NotifyInspector.start(
            center: NotifyCenter(), others: .none, directory: temporary.socketDirectory, ringCapacity: 1024,
            limits: ViewerLimits(maximumViewers: 100, admissionsPerSecond: 2), accept: { $0.acceptConnection() })
        defer { inspector.stop() }
        let clients = try (0..<12).map { _ in try UnixSocket.connect(to: inspector.socketPath) }
        let refused = clients.map { readUntilClosed($0, seconds: 0.5) }.filter {
            $0?.contains(#""reason":"viewer-limit""#) == true
        }
        // 2 at once, then 2 a second: most of a burst of 12 is turned away.
        #expect(refused.count >= 6)
        #expect(inspector.viewerCount <= 12 - refused.count)
    }

    @Test("limits come from the environment; a bad value is a one-line error naming the variable")
    func limitsFromEnvironment() throws {
        let limits = try ViewerLimits.fromEnvironment([
            "NOTIFYTOP_MAX_VIEWERS": "3", "NOTIFYTOP_STALLED_VIEWER_SECONDS": "2.5",
        ])
        #expect(limits.maximumViewers == 3)
        #expect(limits.stalledViewerSeconds == 2.5)
        #expect(throws: TraceError.invalid("NOTIFYTOP_MAX_VIEWERS must be a positive integer, not 'lots'")) {
            try ViewerLimits.fromEnvironment(["NOTIFYTOP_MAX_VIEWERS": "lots"])
        }
    }
}
