import Foundation
import NotifyTUITestSupport
import NotifyWire
import NotifyModel
import NotifySession
import NotifyTUI
import Testing

/// Typed messages in notifytop: marked in Names, their kinds, subjects, mailbox depth and drops in
/// Observers, mailbox waits in Threads, enqueue lines in Events, and the same in `--json`.
struct TypedMessageViewTests {
    static let cart = "NotifyDemo.CartTotalChanged"
    static let theme = "NotifyDemo.ThemeChanged"

    /// The fixture, then an async observer with a subject, a one-slot message sequence and a
    /// main-actor observer; two async posts (the second overflows the sequence's buffer), one run
    /// from the mailbox after 30 ms, and a main-actor post.
    static func events() -> [TraceEvent] {
        var events = Fixture.events()
        var seq = events.compactMap(\.seq).max() ?? 0
        var time = events.compactMap(\.timestamp).max() ?? 0
        func next() -> (UInt64, UInt64) {
            seq += 1
            time += 1_000_000
            return (seq, time)
        }
        var (s, t) = next()
        events.append(.thread(TraceThread(seq: s, timestamp: t, id: 4, systemID: 104, name: "pool-1", isMain: false)))
        events.append(.type(TraceType(id: 10, name: "Demo.CartModel")))
        events.append(.object(TraceObject(id: 10, type: 10, address: 0x7000)))
        events.append(.callsite(TraceCallsite(id: 10, file: "Demo/CartModel.swift", line: 5)))
        for (id, name, kind, target, object) in [
            (UInt64(20), cart, TraceRegistrationKind.asyncMessage, TraceTargetKind.task, UInt64(10) as UInt64?),
            (21, cart, .messageSequence, .posting, nil), (22, theme, .mainActorMessage, .posting, nil),
        ] {
            (s, t) = next()
            events.append(
                .registered(
                    TraceRegistration(
                        seq: s, timestamp: t, thread: 1, id: id, name: name, kind: kind, observer: nil, object: object,
                        target: target, targetLabel: nil, callsite: 10, preexisting: false,
                        capturesObserverStrongly: false)))
        }
        for (post, pending, dropped) in [(UInt64(100), 1, false), (101, 2, true)] {
            (s, t) = next()
            events.append(
                .posted(
                    TracePost(
                        seq: s, timestamp: t, thread: 1, postID: post, name: cart, object: 10, hasUserInfo: false,
                        matched: 2, depth: 1, parentPostID: 0, callsite: 10, message: .async)))
            (s, t) = next()
            events.append(
                .enqueued(
                    TraceMessageEnqueue(
                        seq: s, timestamp: t, thread: 1, postID: post, registration: 20, pending: pending,
                        droppedOldest: false)))
            (s, t) = next()
            events.append(
                .enqueued(
                    TraceMessageEnqueue(
                        seq: s, timestamp: t, thread: 1, postID: post, registration: 21, pending: 1,
                        droppedOldest: dropped)))
        }
        time += 30_000_000
        (s, t) = next()
        events.append(
            .delivered(
                TraceDelivery(
                    seq: s, timestamp: t, thread: 4, postID: 100, registration: 20, name: cart, postingThread: 1,
                    target: .task, start: t - 500_000, duration: 500_000, wait: 30_000_000, depth: 0)))
        (s, t) = next()
        events.append(
            .posted(
                TracePost(
                    seq: s, timestamp: t, thread: 1, postID: 102, name: theme, object: nil, hasUserInfo: false,
                    matched: 1, depth: 1, parentPostID: 0, callsite: 10, message: .mainActor)))
        (s, t) = next()
        events.append(
            .delivered(
                TraceDelivery(
                    seq: s, timestamp: t, thread: 1, postID: 102, registration: 22, name: theme, postingThread: 1,
                    target: .posting, start: t - 200_000, duration: 200_000, wait: 0, depth: 1)))
        return events
    }

    static let size = Size(width: 200, height: 50)

    static func render(_ keys: [Key], view: ViewID) -> (lines: [String], info: FrameInfo) {
        let data = Fixture.data(events())
        var state = ViewState(view: view)
        var frame = Dashboard.render(data, view: state, size: size, glyphs: .unicode)
        for key in keys {
            _ = state.handle(key, context: frame.info)
            frame = Dashboard.render(data, view: state, size: size, glyphs: .unicode)
        }
        return (frame.0.lines, frame.1)
    }

    static func line(_ lines: [String], containing text: String) throws -> String {
        try #require(lines.first { $0.contains(text) }, "\(lines.joined(separator: "\n"))")
    }

    @Test("Names marks message types with their kind, beside notification names")
    func namesMarker() throws {
        let lines = Self.render([], view: .names).lines
        _ = try Self.line(lines, containing: Self.cart + " [message·async]")
        _ = try Self.line(lines, containing: Self.theme + " [message·main]")
        #expect(!lines.contains { $0.contains("cartDidChange [") })
    }

    @Test("Observers shows message kinds, the subject, where they run, mailbox depth and drops")
    func observerRows() throws {
        let lines = Self.render([], view: .observers).lines
        let header = try Self.line(lines, containing: "PEND")
        #expect(header.contains("DROP"))
        let async = try Self.line(lines, containing: "#20")
        #expect(async.contains("message·async for CartModel@0x7000"), "\(async)")
        #expect(async.contains(" task "), "\(async)")
        #expect(async.contains(" 1/2 "), "\(async)")
        let sequence = try Self.line(lines, containing: "#21")
        #expect(sequence.contains("message·seq"), "\(sequence)")
        #expect(
            sequence.contains(" 1/1 ") && sequence.trimmingCharacters(in: .whitespaces).hasSuffix(" 1"), "\(sequence)")
        let main = try Self.line(lines, containing: "#22")
        #expect(main.contains("message·main") && main.contains(" - "), "\(main)")
    }

    @Test("Observers without typed messages has no message columns")
    func noMessageColumns() {
        let data = Fixture.data()
        let frame = Dashboard.render(data, view: ViewState(view: .observers), size: Self.size, glyphs: .unicode)
        #expect(!frame.0.lines.contains { $0.contains("PEND") })
    }

    @Test("a filter on the observer column keeps one message kind")
    func filterByKind() {
        let info = Self.render([.character("/")] + keystrokes("obs~^message·async") + [.enter], view: .observers).info
        let registrations = info.rowKeys.filter { if case .registration = $0 { true } else { false } }
        #expect(registrations == [.registration(20)])
    }

    @Test("Threads shows an async message's run with its kind and its mailbox wait")
    func threadsLog() throws {
        let lines = Self.render([], view: .threads).lines
        let row = try Self.line(lines, containing: "message·async")
        #expect(row.contains("pool-1") && row.contains("30ms"), "\(row)")
    }

    @Test("Events shows enqueue lines, a dropped oldest one as a warning in words")
    func eventsEnqueue() throws {
        let lines = Self.render([], view: .events).lines
        let row = try Self.line(lines, containing: "post 101 → #21")
        #expect(row.contains("enqueue") && row.contains("pending 1 buffer full: oldest dropped"), "\(row)")
        _ = try Self.line(lines, containing: "post 100 → #20 pending 1")
        _ = try Self.line(lines, containing: Self.cart + " message·async post 101")
    }

    private func object(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("--json carries the message kind of names, the mailbox figures of observers and threads, and drops")
    func json() throws {
        let data = Fixture.data(Self.events())
        let names = try object(BatchJSON.line(data, view: ViewState(view: .names), iteration: 1))
        let nameRows = try #require(names["rows"] as? [[String: Any]])
        #expect(nameRows.first { $0["name"] as? String == Self.cart }?["message"] as? String == "async")
        #expect(nameRows.first { $0["name"] as? String == Self.theme }?["message"] as? String == "main")
        #expect(nameRows.first { $0["name"] as? String == "cartDidChange" }?.keys.contains("message") == false)
        let summary = try #require(names["summary"] as? [String: Any])
        #expect(summary["messages_dropped"] as? Int == 1)

        let observers = try object(BatchJSON.line(data, view: ViewState(view: .observers), iteration: 1))
        let rows = try #require(observers["rows"] as? [[String: Any]])
        let async = try #require(rows.first { $0["id"] as? Int == 20 })
        #expect(async["kind"] as? String == "message-async")
        #expect(async["target"] as? String == "task")
        #expect((async["subject"] as? String)?.hasPrefix("Demo.CartModel@0x7000") == true)
        #expect(async["pending_messages"] as? Int == 1)
        #expect(async["max_pending_messages"] as? Int == 2)
        let sequence = try #require(rows.first { $0["id"] as? Int == 21 })
        #expect(sequence["dropped_messages"] as? Int == 1)
        #expect(rows.first { $0["id"] as? Int == 1 }?.keys.contains("pending_messages") == false)

        let threads = try object(BatchJSON.line(data, view: ViewState(view: .threads), iteration: 1))
        let threadItems = try #require(threads["threads"] as? [[String: Any]])
        let pool = try #require(threadItems.first { $0["id"] as? Int == 4 })
        #expect(pool["mailbox_wait_max_ns"] as? Int == 30_000_000)
        #expect(threadItems.first { $0["id"] as? Int == 1 }?.keys.contains("mailbox_wait_max_ns") == false)
    }
}
