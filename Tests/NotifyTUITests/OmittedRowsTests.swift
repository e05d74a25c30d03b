import NotifyTUITestSupport
import NotifyWire
import NotifyModel
import NotifyTUI
import Testing

/// A table that cannot show everything says how much it leaves out and how to see it, in the
/// breadcrumb line: lanes off screen, deliveries older than the threads' logs keep.
struct OmittedRowsTests {
    static let size = Size(width: 120, height: 40)

    /// The fixture plus six threads, each running one delivery: nine threads, four lanes' room.
    static func nineThreads() -> DashboardData {
        var events = Fixture.events()
        var time = events.last!.timestamp! + 1_000_000
        var seq: UInt64 = 10_000
        for id in UInt64(4)...9 {
            seq += 1
            time += 1_000_000
            events.append(
                .thread(
                    TraceThread(
                        seq: seq, timestamp: time, id: id, systemID: Int32(200 + id), name: "pool-\(id)",
                        isMain: false)))
            seq += 1
            events.append(
                .posted(
                    TracePost(
                        seq: seq, timestamp: time, thread: id, postID: 1_000 + id, name: "tick", object: nil,
                        hasUserInfo: false, matched: 1, depth: 1, parentPostID: 0, callsite: 4)))
            seq += 1
            events.append(
                .delivered(
                    TraceDelivery(
                        seq: seq, timestamp: time + 1_000, thread: id, postID: 1_000 + id, registration: 5,
                        name: "tick", postingThread: id, target: .posting, start: time, duration: 1_000, wait: 0,
                        depth: 1)))
        }
        return Fixture.data(events)
    }

    static func lanes(_ data: DashboardData, keys: [Key] = []) -> (Canvas, FrameInfo) {
        var view = ViewState(view: .threads)
        view.threadLayout = .lanes
        var frame = Dashboard.render(data, view: view, size: size, glyphs: .unicode)
        for key in keys {
            _ = view.handle(key, context: frame.info)
            frame = Dashboard.render(data, view: view, size: size, glyphs: .unicode)
        }
        return frame
    }

    @Test("lanes that do not fit are counted in the breadcrumb, with the keys that show them")
    func hiddenLanes() {
        let (canvas, info) = Self.lanes(Self.nineThreads())
        #expect(info.rowKeys.count == 9)
        #expect(canvas.lines[4].contains("5 of 9 threads hidden: ↑↓ scroll, t merges"), "\(canvas.lines[4])")
        // Scrolling to the last lane shows it; the count of hidden ones stays right.
        let (scrolled, _) = Self.lanes(Self.nineThreads(), keys: Array(repeating: .down, count: 8))
        #expect(scrolled.lines[5].contains("pool-"), "\(scrolled.lines[5])")
        #expect(scrolled.lines[4].contains("5 of 9 threads hidden"))
        // Three threads fit: nothing is said.
        let (all, _) = Self.lanes(Fixture.data())
        #expect(!all.lines[4].contains("hidden"))
    }

    /// The fixture folded with threads' logs of `capacity` entries.
    static func data(logCapacity capacity: Int) -> DashboardData {
        var configuration = InspectorConfiguration()
        configuration.threadLogCapacity = capacity
        var model = InspectorState(configuration: configuration)
        for event in Fixture.events() { model.apply(event) }
        return DashboardData(model: model, status: SessionStatus(mode: .live))
    }

    @Test("a registration's deliveries say when the threads' logs kept only the newest of them")
    func registrationKeepsTheNewest() {
        let data = Self.data(logCapacity: 4)
        var view = ViewState(view: .names)
        view.drill[.names] = [.name("cartDidChange"), .registration(1)]
        let (canvas, info) = Dashboard.render(data, view: view, size: Self.size, glyphs: .unicode)
        let kept = info.rowKeys.count
        #expect(kept < 5)
        #expect(
            canvas.lines[4].contains("showing the newest \(kept) of 5 deliveries (a thread's log keeps 4)"),
            "\(canvas.lines[4])")
        // With room for all of them, nothing is said.
        let (whole, wholeInfo) = Dashboard.render(
            Self.data(logCapacity: 128), view: view, size: Self.size, glyphs: .unicode)
        #expect(wholeInfo.rowKeys.count == 5)
        #expect(!whole.lines[4].contains("newest"))
    }

    @Test("a registration none of whose deliveries the logs still hold says so, not \"no deliveries yet\"")
    func registrationWithNoneKept() throws {
        let data = Self.data(logCapacity: 1)
        let candidates = data.model.registrations.filter { $0.deliveries > 0 }.map { ($0.id, $0.name ?? "*") }
        var found = false
        for (id, name) in candidates {
            var view = ViewState(view: .names)
            view.drill[.names] = [.name(name), .registration(id)]
            let (canvas, info) = Dashboard.render(data, view: view, size: Self.size, glyphs: .unicode)
            guard info.rowKeys.isEmpty else { continue }
            found = true
            let screen = canvas.lines.joined(separator: "\n")
            #expect(!screen.contains("no deliveries yet"))
            #expect(screen.contains("deliveries are no longer in the threads' logs (a thread's log keeps 1)"))
        }
        #expect(found, "a registration whose deliveries the one-entry logs all dropped")
    }

    @Test("a thread's log and the merged log say how many deliveries they no longer hold")
    func threadLogKeepsTheNewest() {
        let data = Self.data(logCapacity: 4)
        var view = ViewState(view: .threads)
        view.drill[.threads] = [.thread(1)]
        let (thread, _) = Dashboard.render(data, view: view, size: Self.size, glyphs: .unicode)
        #expect(thread.lines[4].contains("showing the newest 4 of 21 deliveries"), "\(thread.lines[4])")
        let (merged, _) = Dashboard.render(data, view: ViewState(view: .threads), size: Self.size, glyphs: .unicode)
        #expect(merged.lines[4].contains("showing the newest 10 of 31 deliveries"), "\(merged.lines[4])")
    }

    @Test("a key's notice takes the breadcrumb's room before the note")
    func noticeFirst() {
        var view = ViewState(view: .threads)
        view.threadLayout = .lanes
        view.notice = Notice("marks, clear and wrap work in the logs: views 3, 5 and 6", isError: true)
        let (canvas, _) = Dashboard.render(Self.nineThreads(), view: view, size: Self.size, glyphs: .unicode)
        #expect(canvas.lines[4].contains("marks, clear and wrap"))
        #expect(!canvas.lines[4].contains("hidden"))
    }
}
