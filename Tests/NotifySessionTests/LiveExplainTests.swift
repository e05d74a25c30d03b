import ArgumentParser
import Dispatch
import Foundation
import NotifyCommandLine
import NotifyKit
import NotifyModel
import NotifySession
import NotifySystem
import NotifyTestSupport
import NotifyTraceApp
import Testing

/// `notifytop explain --pid`: attach, fold for a bounded time, answer as on a file.
@Suite("explain --pid: a live process explained like a recording")
struct LiveExplainTests {
    static let outer = Notification.Name("LiveCascadeOuter")
    static let inner = Notification.Name("LiveCascadeInner")

    @Test("Folding a live inspector for a bounded time gives the same explanation and cascade as its recording")
    func liveEqualsRecording() throws {
        let directory = temporaryPath("live-explain")
        let recording = directory + "-rec.ndjson"
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: recording)
        }
        let center = NotifyCenter()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        // The outer post's queue handler posts the inner one on the queue's thread: an async hop.
        let outerToken = center.addObserver(forName: Self.outer, object: nil, queue: queue) { _ in
            center.post(name: Self.inner)
        }
        let innerToken = center.addObserver(forName: Self.inner, object: nil, queue: nil) { _ in }
        defer {
            outerToken.cancel()
            innerToken.cancel()
        }
        let inspector = try NotifyInspector.start(
            center: center, others: .none, directory: SocketDirectory(path: directory))
        defer { inspector.stop() }
        let running = LockedValue(true)
        let group = DispatchGroup()
        // Once the fold has attached, posts every 20 ms until it ends: however late a loaded
        // machine runs the poster or the queue, handlers run (and post) inside the fold's window.
        DispatchQueue.global().async(group: group) {
            let attached = Date(timeIntervalSinceNow: 10)
            while inspector.viewerCount == 0, Date() < attached, running.withLock({ $0 }) { usleep(5_000) }
            while running.withLock({ $0 }) {
                center.post(name: Self.outer)
                usleep(20_000)
            }
        }
        let options = try NotifyTopOptions.parse([
            "--socket", inspector.socketPath, "--no-reattach", "--record", recording,
        ])
        let started = Date()
        let fold = try LiveFold(options, for: 2_000_000_000)
        running.withLock { $0 = false }
        group.wait()
        queue.waitUntilAllOperationsAreFinished()
        #expect(Date().timeIntervalSince(started) < 20, "the fold is bounded by --for")
        #expect(fold.ended == nil)
        #expect(fold.events > 0)

        let live = fold.model.explain(name: Self.outer.rawValue)
        #expect(!live.posts.isEmpty)
        #expect(live.posts.allSatisfy { post in post.considered.contains { $0.delivered } || post.notes.isEmpty })
        // Same JSON from the recording of the same events.
        let replayed = try RecordingFold(path: recording).model
        #expect(ExplanationReport(live).json == ExplanationReport(replayed.explain(name: Self.outer.rawValue)).json)

        // The cascade of an outer post whose handler ran: the inner post under that run, on the queue's thread.
        let ran = try #require(
            live.posts.last { post in
                fold.model.cascade(post: post.post.postID)?.root.deliveries.first?.nested.isEmpty == false
            })
        let tree = try #require(fold.model.cascade(post: ran.post.postID))
        let run = try #require(tree.root.deliveries.first)
        #expect(run.delivery.hopped)
        #expect(run.nested.first?.post.name == Self.inner.rawValue)
        #expect(run.nested.first?.post.thread == run.delivery.thread)
        #expect(CascadeReport(tree).json == CascadeReport(try #require(replayed.cascade(post: ran.post.postID))).json)
        let chain = try #require(fold.model.postedBy(post: run.nested[0].post.postID))
        #expect(chain.reachedRoot)
        #expect(chain.steps.count == 3)
    }

    @Test("A socket nobody listens on is a one-line failure, not a hang")
    func nothingToAttach() throws {
        let options = try NotifyTopOptions.parse(["--socket", temporaryPath("no-such") + ".sock", "--no-reattach"])
        let started = Date()
        #expect(throws: LiveFold.Failure.self) { try LiveFold(options, for: 10_000_000_000) }
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
