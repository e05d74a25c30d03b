import NotifyModel
import NotifyTUI
import NotifyTUITestSupport
import NotifyWire
import Testing

/// `c` (a post's cascade as a tree), `u` (posted by) and `x` on a leak warning, on the in-memory canvas.
struct CascadePaneTests {
    /// Post 1 "cartDidChange" on main: handler #1 (inline) posts 2 "badgeDidChange", whose
    /// handler #3 runs on worker after a queue wait; handler #2 runs inline too. Registrations #1
    /// and #2 are the same block registered twice at one site (a duplicate).
    static func data() -> DashboardData {
        let base: UInt64 = 1_000_000_000
        var events: [TraceEvent] = [
            .header(
                TraceHeader(
                    pid: 7, process: "Shop", center: "default", clockMono: base, clockWall: 1_700_000_000_000_000_000,
                    producer: "NotifyKit")),
            .thread(TraceThread(seq: 1, timestamp: base, id: 1, systemID: 7, name: "main", isMain: true)),
            .thread(TraceThread(seq: 2, timestamp: base, id: 2, systemID: 8, name: "worker", isMain: false)),
            .callsite(TraceCallsite(id: 10, file: "Shop/Cart.swift", line: 12)),
            .callsite(TraceCallsite(id: 11, file: "Shop/Badge.swift", line: 30)),
            .callsite(TraceCallsite(id: 20, file: "Shop/Cart.swift", line: 80)),
            .callsite(TraceCallsite(id: 21, file: "Shop/Badge.swift", line: 5)),
        ]
        var seq: UInt64 = 2
        func next() -> UInt64 {
            seq += 1
            return seq
        }
        for (id, name, site, target) in [
            (UInt64(1), "cartDidChange", UInt64(10), TraceTargetKind.posting), (2, "cartDidChange", 10, .posting),
            (3, "badgeDidChange", 11, .dispatchQueue),
        ] {
            events.append(
                .registered(
                    TraceRegistration(
                        seq: next(), timestamp: base + 1_000, thread: 1, id: id, name: name, kind: .block,
                        observer: nil,
                        object: nil, target: target, targetLabel: nil, callsite: site, preexisting: false,
                        capturesObserverStrongly: false)))
        }
        let t = base + 1_000_000
        events.append(
            .posted(
                TracePost(
                    seq: next(), timestamp: t, thread: 1, postID: 1, name: "cartDidChange", object: nil,
                    hasUserInfo: false, matched: 2, depth: 1, parentPostID: 0, callsite: 20)))
        events.append(
            .posted(
                TracePost(
                    seq: next(), timestamp: t + 2_000, thread: 1, postID: 2, name: "badgeDidChange", object: nil,
                    hasUserInfo: false, matched: 1, depth: 2, parentPostID: 1, callsite: 21)))
        events.append(delivery(next(), post: 1, registration: 1, thread: 1, start: t + 1_000, duration: 5_000))
        events.append(delivery(next(), post: 1, registration: 2, thread: 1, start: t + 7_000, duration: 1_000))
        events.append(
            delivery(next(), post: 2, registration: 3, thread: 2, start: t + 50_000, duration: 20_000, wait: 45_000))
        var model = InspectorState()
        var tail = EventTail()
        for event in events {
            model.apply(event)
            tail.append(event)
        }
        return DashboardData(model: model, tail: tail, status: SessionStatus(mode: .live))
    }

    static func delivery(
        _ seq: UInt64, post: UInt64, registration: UInt64, thread: UInt64, start: UInt64, duration: UInt64,
        wait: UInt64 = 0
    ) -> TraceEvent {
        .delivered(
            TraceDelivery(
                seq: seq, timestamp: start + duration, thread: thread, postID: post, registration: registration,
                name: post == 1 ? "cartDidChange" : "badgeDidChange", postingThread: 1,
                target: thread == 1 ? .posting : .dispatchQueue, start: start, duration: duration, wait: wait,
                depth: 1))
    }

    private func press(
        _ keys: [Key], _ view: inout ViewState, data: DashboardData = data(), glyphs: Glyphs = .unicode
    ) -> (Canvas, FrameInfo) {
        NotifyTUITestSupport.press(keys, &view, size: Size(width: 140, height: 30), data: data, glyphs: glyphs)
    }

    /// Opens Leaks with the row of `data`'s duplicate-registration warning selected; returns it.
    static func selectDuplicateWarning(
        _ view: inout ViewState, data: DashboardData, width: Int = 140
    ) throws -> LeakFinding {
        let finding = try #require(data.model.findings.first { $0.rule == .duplicateRegistration })
        view = ViewState(view: .leaks)
        let (_, leaks) = NotifyTUITestSupport.press(
            [], &view, size: Size(width: width, height: 30), data: data)
        let index = try #require(leaks.rowKeys.firstIndex(of: .warning(finding.key.description)))
        view.table.selectedIndex = index
        view.table.selectedKey = leaks.rowKeys[index]
        return finding
    }

    /// Selects the Events row with `seq`.
    private func select(_ seq: UInt64, _ view: inout ViewState) {
        var table = view.table
        table.selectedKey = nil
        let (_, info) = press([], &view)
        guard let index = info.rowKeys.firstIndex(where: { if case .event(seq, _) = $0 { true } else { false } }) else {
            Issue.record("no Events row for seq \(seq)")
            return
        }
        table.selectedIndex = index
        table.selectedKey = info.rowKeys[index]
        table.follow = false
        view.table = table
    }

    @Test("c on a post in Events draws its tree with the canvas' branches; ASCII falls back")
    func treeFromEvents() {
        var view = ViewState(view: .events)
        select(6, &view)
        let (canvas, info) = press([.char("c")], &view)
        #expect(view.path.last == .cascade(.event(6)))
        let lines = canvas.lines
        let screen = lines.joined(separator: "\n")
        #expect(screen.contains("cascade: event 6"))
        #expect(lines.contains { $0.contains("cartDidChange") && $0.contains("Cart.swift:80") })
        #expect(lines.contains { $0.contains("├─ #1 cartDidChange") })
        #expect(lines.contains { $0.contains("│  └─ badgeDidChange") })
        #expect(lines.contains { $0.contains("│     └─ #3 badgeDidChange") && $0.contains("worker") })
        #expect(lines.contains { $0.contains("└─ #2 cartDidChange") })
        #expect(
            lines.contains {
                $0.contains("#3 badgeDidChange") && $0.contains("45µs") && $0.contains("hopped from main")
            })
        #expect(info.rowKeys.count == 5)
        var ascii = ViewState(view: .events)
        select(6, &ascii)
        let (plain, _) = press([.char("c")], &ascii, glyphs: .ascii)
        #expect(plain.lines.contains { $0.contains("|- #1 cartDidChange") })
        #expect(plain.lines.contains { $0.contains("|     `- #3 badgeDidChange") })
        #expect(!plain.lines.joined().contains("├"))
    }

    @Test("The tree's rows filter and sort like a table; u on a delivery in it climbs to the root")
    func filterSortAndPostedBy() {
        var view = ViewState(view: .events)
        select(6, &view)
        _ = press([.char("c")], &view)
        let (_, narrowed) = press(keystrokes("/worker") + [.enter], &view)
        #expect(narrowed.rowKeys == [.event(seq: 10, registration: 3)])
        // u on the hopped delivery: posted by, root first.
        let (canvas, chain) = press([.char("u")], &view)
        #expect(view.path.last == .postedBy(.event(10)))
        #expect(chain.rowKeys.map(\.description) == ["evt:6", "reg:1#e8", "evt:7", "reg:3#e10"])
        #expect(canvas.lines.joined(separator: "\n").contains("posted by: event 10"))
        // Sorting by RAN (AT, WAIT, RAN) puts the longest run first.
        var sorting = ViewState(view: .events)
        select(6, &sorting)
        let (_, sorted) = press([.char("c"), .char("s"), .char("s"), .char("s")], &sorting)
        #expect(sorted.rowKeys.first == .event(seq: 10, registration: 3))
    }

    @Test("u opens on the delivery it climbs from, from Events, Threads and a sorted cascade")
    func postedBySelectsTheOrigin() throws {
        var events = ViewState(view: .events)
        select(10, &events)
        let (_, fromEvents) = press([.char("u")], &events)
        #expect(fromEvents.rowKeys[fromEvents.selectedIndex] == .event(seq: 10, registration: 3))
        var threads = ViewState(view: .threads)
        let (_, log) = press([], &threads)
        let index = try #require(log.rowKeys.firstIndex(of: .delivery(registration: 3, post: 2)))
        threads.table.selectedIndex = index
        threads.table.selectedKey = log.rowKeys[index]
        threads.table.follow = false
        let (_, fromThreads) = press([.char("u")], &threads)
        #expect(threads.path.last == .postedBy(.delivery(post: 2, registration: 3)))
        #expect(fromThreads.rowKeys[fromThreads.selectedIndex] == .event(seq: 10, registration: 3))
        // Climbing again after moving to the root and going back selects the delivery again.
        let (_, top) = press([.home], &events)
        #expect(top.selectedIndex == 0)
        let (_, again) = press([.escape, .char("u")], &events)
        #expect(events.path.last == .postedBy(.event(10)))
        #expect(again.rowKeys[again.selectedIndex] == .event(seq: 10, registration: 3))
        // From a cascade row below another, the chain ends on (and selects) that delivery.
        var cascade = ViewState(view: .events)
        select(6, &cascade)
        let (_, tree) = press([.char("c")], &cascade)
        let second = try #require(tree.rowKeys.firstIndex(of: .event(seq: 9, registration: 2)))
        cascade.table.selectedIndex = second
        cascade.table.selectedKey = tree.rowKeys[second]
        let (_, chain) = press([.char("u")], &cascade)
        #expect(chain.rowKeys.last == .event(seq: 9, registration: 2))
        #expect(chain.selectedIndex == chain.rowKeys.count - 1)
    }

    @Test("c and u work from Threads' deliveries and from the x pane; on a row with no post they say so")
    func otherEntries() {
        var threads = ViewState(view: .threads)
        let (_, log) = press([], &threads)
        #expect(log.rowKeys.contains(.delivery(registration: 3, post: 2)))
        var explain = ViewState(view: .events)
        select(7, &explain)
        let (_, why) = press([.char("x")], &explain)
        #expect(why.rowKeys.contains(.event(seq: 7, registration: 3)))
        let (_, tree) = press([.char("c")], &explain)
        #expect(explain.path.last == .cascade(.event(7)))
        #expect(tree.rowKeys.first == .event(seq: 7, registration: nil))
        var names = ViewState(view: .names)
        _ = press([.char("c")], &names)
        #expect(names.path.isEmpty)
        #expect(names.notice?.isError == true)
    }

    @Test("x on a duplicate-registration warning lists the extra run it caused")
    func findingEffects() throws {
        let data = Self.data()
        var view = ViewState(view: .leaks)
        let finding = try Self.selectDuplicateWarning(&view, data: data)
        let (canvas, effects) = press([.char("x")], &view, data: data)
        #expect(view.path.last == .explainFinding(finding.key.description))
        let screen = canvas.lines.joined(separator: "\n")
        #expect(screen.contains("effects of R5"))
        #expect(effects.rowKeys == [.event(seq: 9, registration: 2)])
        #expect(canvas.lines.contains { $0.contains("caused") && $0.contains("extra run") && $0.contains("#1") })
    }
}
