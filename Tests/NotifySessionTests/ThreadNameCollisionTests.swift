import NotifyWire
import NotifyModel
@testable import NotifySession
import NotifyTUI
import Testing

/// Two threads with one name are told apart by id in the Threads view; a renamed thread shows
/// its new name.
struct ThreadNameCollisionTests {
    static func events(renameThird: Bool = false) -> [TraceEvent] {
        var events: [TraceEvent] = [
            .header(
                TraceHeader(
                    pid: 6, process: "App", center: "default", clockMono: 1_000, clockWall: 0,
                    producer: "test")),
            .thread(TraceThread(seq: 1, timestamp: 1_000, id: 1, systemID: 6, name: "App", isMain: true)),
            .thread(TraceThread(seq: 2, timestamp: 1_000, id: 2, systemID: 7, name: "worker", isMain: false)),
            .thread(TraceThread(seq: 3, timestamp: 1_000, id: 3, systemID: 8, name: "worker", isMain: false)),
            .callsite(TraceCallsite(id: 4, file: "App/Work.swift", line: 3)),
        ]
        var seq: UInt64 = 3
        for (index, thread) in [UInt64(2), 3].enumerated() {
            let registration = UInt64(10 + index)
            events.append(
                .registered(
                    TraceRegistration(
                        seq: seq + 1, timestamp: 2_000, thread: 1, id: registration, name: "work", kind: .block,
                        observer: nil, object: nil, target: .dispatchQueue, targetLabel: "worker", callsite: 4,
                        preexisting: false, capturesObserverStrongly: false)))
            events.append(
                .posted(
                    TracePost(
                        seq: seq + 2, timestamp: 3_000, thread: 1, postID: registration, name: "work", object: nil,
                        hasUserInfo: false, matched: 1, depth: 1, parentPostID: 0, callsite: 4)))
            events.append(
                .delivered(
                    TraceDelivery(
                        seq: seq + 3, timestamp: 4_000, thread: thread, postID: registration,
                        registration: registration,
                        name: "work", postingThread: 1, target: .dispatchQueue, start: 3_500, duration: 500, wait: 500,
                        depth: 1)))
            seq += 3
        }
        if renameThird {
            events.append(
                .thread(
                    TraceThread(
                        seq: seq + 1, timestamp: 5_000, id: 3, systemID: 8,
                        name: "com.app.sync", isMain: false)))
        }
        return events
    }

    static func threadsFrame(_ events: [TraceEvent]) throws -> [String] {
        let session = DashboardSession(source: .fixed(events))
        let terminal = InMemoryTerminal(size: Size(width: 120, height: 20), keys: [.char("3")])
        _ = session.run(on: terminal, maxFrames: 2)
        return try #require(terminal.frames.last).lines
    }

    @Test("two threads named alike show their ids in the merged log")
    func sameNamesShowIDs() throws {
        let lines = try Self.threadsFrame(Self.events())
        #expect(lines.contains { $0.contains("worker#2") }, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("worker#3") }, "\(lines.joined(separator: "\n"))")
    }

    @Test("a thread introduced again under a new name shows it, and the other keeps its plain name")
    func renamedThreadShowsNewName() throws {
        let lines = try Self.threadsFrame(Self.events(renameThird: true))
        #expect(lines.contains { $0.contains("com.app.sync") }, "\(lines.joined(separator: "\n"))")
        #expect(
            lines.contains { $0.contains("worker ") } && !lines.contains { $0.contains("worker#") },
            "\(lines.joined(separator: "\n"))")
        var model = InspectorState()
        model.apply(Self.events(renameThird: true))
        #expect(model.thread(3)?.name == "com.app.sync")
        #expect(!model.threadNameIsShared("worker"))
    }
}
