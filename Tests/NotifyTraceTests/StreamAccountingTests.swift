import Foundation
import NotifyTestSupport
import NotifyWire
import NotifyKit
@testable import NotifySystem
@testable import NotifyTraceApp
@testable import NotifyTraceViewer
import Testing

private let ping = Notification.Name("accounting.ping")

/// Every event produced for a viewer is either received or counted by a gap, to the end of the
/// stream, and `seq` accounts for every number.
@Suite("Stream accounting", .serialized, .timeLimit(.minutes(10)))
struct StreamAccountingTests {
    private func start(_ center: NotifyCenter, _ directory: TemporaryDirectory, limits: ViewerLimits)
        throws -> NotifyInspector
    {
        try NotifyInspector.start(
            center: center, others: .none, directory: directory.socketDirectory, ringCapacity: 1 << 16,
            limits: limits, accept: { $0.acceptConnection() })
    }

    @Test("a stream that ends while its viewer lags ends with a gap counting every post it did not get, then end")
    func endWhileLagging() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        var limits = ViewerLimits(viewerBufferBytes: 1 << 20, stalledViewerSeconds: 60)
        limits.endFlushNanoseconds = 0  // the viewer is still behind when the stream ends
        limits.endLastNanoseconds = 30_000_000_000
        let inspector = try start(center, temporary, limits: limits)
        let viewer = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath), paused: true)
        #expect(eventually { inspector.viewerCount == 1 })
        let posts = 20_000
        // Posts name many objects: their `obj` definition lines must never be counted as lost events.
        let objects = (0..<500).map { _ in NSObject() }
        for index in 0..<posts { center.post(name: ping, object: objects[index % objects.count]) }
        // The paused viewer's queue is full and it has missed events: it is behind when the stream
        // ends. (A full queue alone is not enough: the exporter may not have drained the rest yet.)
        #expect(eventually { inspector.viewerHasMissed })
        // Stopping waits for the end of the stream, which waits for the viewer to read.
        let stopped = DispatchGroup()
        DispatchQueue.global().async(group: stopped) { inspector.stop() }
        viewer.paused = false
        let stream = viewer.finish()
        stopped.wait()
        let account = StreamAccount(stream)
        #expect(account.end?.reason == .inspectorStopped)
        #expect(account.viewerBehindGaps.count >= 1)
        #expect(account.posts < posts)
        #expect(UInt64(account.posts) + account.lost == UInt64(posts))
        #expect(account.undefinedObjects == 0)
        #expect(account.decreasingSeq == 0)
        if account.lostInRing == 0 { #expect(account.unaccountedSeq == []) }
    }

    @Test(
        "a viewer that stops reading for seconds while several threads post: its gaps count exactly what it missed, and seq only grows"
    )
    func pausedViewerUnderConcurrentPosting() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let token = center.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        defer { token.cancel() }
        let inspector = try start(
            center, temporary,
            limits: ViewerLimits(
                viewerBufferBytes: 256 * 1024,
                stalledViewerSeconds: 60))
        let viewer = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath))
        #expect(eventually { inspector.viewerCount == 1 })
        let posters = Posters(center, ping, threads: 4)
        #expect(eventually { viewer.postCount > 1_000 })
        viewer.paused = true
        let pausedAt = posters.posted
        // The viewer stands still while the app goes on posting well past its buffer.
        #expect(eventually { posters.posted > pausedAt + 40_000 })
        viewer.paused = false
        #expect(eventually { posters.posted > pausedAt + 60_000 })
        let posted = posters.stop()
        inspector.stop()
        let account = StreamAccount(viewer.finish())
        let produced = UInt64(posted) * 2 + 1  // posts, deliveries, the registration
        #expect(account.end?.reason == .inspectorStopped)
        #expect(account.viewerBehindGaps.count >= 1)
        #expect(UInt64(account.events) + account.lost == produced)
        #expect(account.decreasingSeq == 0)
        if account.lostInRing == 0 { #expect(account.unaccountedSeq == []) }
    }

    @Test(
        "a viewer process stopped with SIGSTOP while the app posts, then continued: its gaps count exactly the events it did not receive"
    )
    func stoppedViewerProcess() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let token = center.addObserver(forName: ping, object: nil, queue: nil) { _ in }
        defer { token.cancel() }
        let limits = ViewerLimits(viewerBufferBytes: 256 * 1024, stalledViewerSeconds: 60)
        let inspector = try start(center, temporary, limits: limits)
        // The viewer is `cat`, reading the socket and writing what it gets to a file.
        let output = temporary.socketDirectory.path + "/viewer.jsonl"
        try #require(FileManager.default.createFile(atPath: output, contents: Data()))
        let socket = try UnixSocket.connect(to: inspector.socketPath)
        let written = open(output, O_WRONLY | O_CLOEXEC)
        try #require(written >= 0)
        let viewer = try ChildProcess.start(["/bin/cat"], input: socket.descriptor, output: written)
        close(written)
        socket.close()
        defer {
            if viewer.termination() == nil {
                kill(viewer.pid, SIGCONT)
                viewer.terminate()
            }
        }
        #expect(eventually { inspector.viewerCount == 1 })
        let posters = Posters(center, ping, threads: 1)
        #expect(eventually { posters.posted > 5_000 })
        kill(viewer.pid, SIGSTOP)
        let stoppedAt = posters.posted
        #expect(eventually { posters.posted > stoppedAt + 50_000 })
        // On a loaded machine the exporter may get so little CPU that the app's ring, not this
        // viewer, drops what it cannot send: go on until the stopped viewer has missed lines too,
        // then post some more.
        #expect(eventually(seconds: 30) { inspector.viewerHasMissed })
        let filledAt = posters.posted
        #expect(eventually { posters.posted > filledAt + 5_000 })
        kill(viewer.pid, SIGCONT)
        let continuedAt = posters.posted
        #expect(eventually { posters.posted > continuedAt + 5_000 })
        let posted = posters.stop()
        inspector.stop()
        #expect(eventually(seconds: 30) { viewer.termination() != nil })
        let (stream, _) = try TraceReader.open(file: output).readToEnd(seconds: 30)
        let account = StreamAccount(stream)
        #expect(account.end?.reason == .inspectorStopped)
        #expect(account.viewerBehindGaps.count >= 1)
        #expect(UInt64(account.events) + account.lost == UInt64(posted) * 2 + 1)
        #expect(account.decreasingSeq == 0)
        if account.lostInRing == 0 { #expect(account.unaccountedSeq == []) }
    }

    @Test(
        "stopped while eight threads post and observers are deallocated mid-post: the stream still ends with its end line, every number accounted"
    )
    func stopDuringConcurrentDeallocation() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let inspector = try start(center, temporary, limits: ViewerLimits(stalledViewerSeconds: 60))
        let viewer = BackgroundViewer(try TraceReader.connect(socketPath: inspector.socketPath))
        #expect(eventually { inspector.viewerCount == 1 })
        let running = LockedValue(true)
        let rounds = LockedValue(0)
        let group = DispatchGroup()
        for thread in 0..<8 {
            DispatchQueue.global().async(group: group) {
                let name = Notification.Name("accounting.dealloc.\(thread)")
                let holder = LockedValue<DeallocatedMidPost?>(nil)
                // Registered first, so it runs first and frees the next observer's target mid-post.
                let killer = center.addObserver(forName: name, object: nil, queue: nil) { _ in
                    holder.withLock { $0 = nil }
                }
                while running.withLock({ $0 }) {
                    let victim = DeallocatedMidPost()
                    center.addObserver(victim, action: DeallocatedMidPost.handle, name: name, object: nil)
                    holder.withLock { $0 = victim }
                    center.post(name: name)
                    rounds.withLock { $0 += 1 }
                }
                killer.cancel()
            }
        }
        #expect(eventually { rounds.withLock { $0 } > 2_000 })
        // Stopped as an exit does: beside threads that go on posting.
        inspector.stop()
        running.withLock { $0 = false }
        group.wait()
        let account = StreamAccount(viewer.finish())
        #expect(account.end?.reason == .inspectorStopped)
        #expect(account.posts > 0)
        #expect(account.decreasingSeq == 0)
        if account.lostInRing == 0 { #expect(account.unaccountedSeq == []) }
    }
}

private final class DeallocatedMidPost: NSObject {
    func handle(_ note: Notification) {}
}
