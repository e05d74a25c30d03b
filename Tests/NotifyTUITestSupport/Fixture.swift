import NotifyModel
package import NotifyTUI
package import NotifyWire

/// A small, deterministic trace: three threads, CJK and ASCII names, a dropped token, a slow
/// handler, a typo'd post and a removal, so every view has real content.
package enum Fixture {
    package static let base: UInt64 = 1_000_000_000

    package static func events(registrations extra: Int = 0) -> [TraceEvent] {
        var events: [TraceEvent] = []
        var seq: UInt64 = 0
        var time = base
        func next(_ milliseconds: UInt64 = 5) -> (UInt64, UInt64) {
            seq += 1
            time += milliseconds * 1_000_000
            return (seq, time)
        }
        events.append(
            .header(
                TraceHeader(
                    pid: 4242, process: "ShopDemo", center: "default", clockMono: base,
                    clockWall: 1_700_000_000_000_000_000, producer: "NotifyKit 0.1.0")))
        for (id, name, isMain) in [(UInt64(1), "main", true), (2, "worker-1", false), (3, "io-queue", false)] {
            let (s, t) = next()
            events.append(
                .thread(
                    TraceThread(seq: s, timestamp: t, id: id, systemID: Int32(100 + id), name: name, isMain: isMain)))
        }
        for (id, name) in [(UInt64(1), "Demo.CartScreen"), (2, "Demo.BadgeView"), (3, "Demo.SyncService")] {
            events.append(.type(TraceType(id: id, name: name)))
            events.append(.object(TraceObject(id: id, type: id, address: 0x6000_0000_1000 + id * 0x100)))
        }
        for (id, file, line) in [
            (UInt64(1), "Demo/CartScreen.swift", UInt(42)), (2, "Demo/BadgeView.swift", 17),
            (3, "Demo/Sync.swift", 88), (4, "Demo/Checkout.swift", 9),
        ] {
            events.append(.callsite(TraceCallsite(id: id, file: file, line: line)))
        }
        func register(
            _ id: UInt64, _ name: String?, _ kind: TraceRegistrationKind, observer: UInt64?,
            target: TraceTargetKind, label: String? = nil, site: UInt64, strong: Bool = false
        ) {
            let (s, t) = next()
            events.append(
                .registered(
                    TraceRegistration(
                        seq: s, timestamp: t, thread: 1, id: id, name: name, kind: kind, observer: observer,
                        object: nil,
                        target: target, targetLabel: label, callsite: site, preexisting: false,
                        capturesObserverStrongly: strong)))
        }
        register(1, "cartDidChange", .target, observer: 1, target: .main, site: 1)
        register(2, "cartDidChange", .block, observer: nil, target: .posting, site: 1)
        register(3, "通知センター", .ownerBound, observer: 2, target: .thread, label: "worker-1", site: 2)
        register(4, "userDidLogin", .target, observer: 3, target: .dispatchQueue, label: "com.shop.sync", site: 3)
        register(5, nil, .block, observer: nil, target: .posting, site: 4)
        register(6, "cartDidChange", .block, observer: nil, target: .posting, site: 4, strong: true)
        for index in 0..<extra {
            register(
                100 + UInt64(index), "bulk.name.\(index % 500)", .block, observer: nil, target: .posting,
                site: 4)
        }
        var postID: UInt64 = 0
        func post(_ name: String, thread: UInt64, to registrations: [(UInt64, UInt64, UInt64)]) {
            postID += 1
            let (s, t) = next()
            events.append(
                .posted(
                    TracePost(
                        seq: s, timestamp: t, thread: thread, postID: postID, name: name, object: nil,
                        hasUserInfo: false, matched: registrations.count, depth: 1, parentPostID: 0,
                        callsite: 4)))
            for (registration, deliveringThread, micros) in registrations {
                let (s2, t2) = next(micros / 1_000 + 1)
                events.append(
                    .delivered(
                        TraceDelivery(
                            seq: s2, timestamp: t2, thread: deliveringThread, postID: postID,
                            registration: registration, name: name,
                            postingThread: thread, target: .posting, start: t2 - micros * 1_000,
                            duration: micros * 1_000,
                            wait: 0, depth: 1)))
            }
        }
        for round in 0..<4 {
            post("cartDidChange", thread: 1, to: [(1, 1, 120), (2, 1, 35), (5, 1, 8), (6, 1, 12)])
            post("通知センター", thread: 2, to: [(3, 2, 900), (5, 2, 6)])
            if round == 1 { post("userDidLogin", thread: 3, to: [(4, 3, 150_000), (5, 3, 5)]) }
        }
        post("userDidLogn", thread: 1, to: [(5, 1, 4)])
        let (s, t) = next()
        events.append(.tokenDropped(TraceTokenDrop(seq: s, timestamp: t, thread: 1, registration: 6)))
        post("cartDidChange", thread: 1, to: [(1, 1, 110), (2, 1, 30), (5, 1, 7), (6, 1, 11)])
        let (s3, t3) = next()
        events.append(.removed(TraceRemoval(seq: s3, timestamp: t3, thread: 3, registration: 4, reason: .explicit)))
        return events
    }

    /// Frame data from the fixture, as a live session at its last event.
    package static func data(_ events: [TraceEvent] = events(), paused: Bool = false) -> DashboardData {
        var model = InspectorState()
        var tail = EventTail()
        for event in events {
            model.apply(event)
            tail.append(event)
        }
        if let last = events.last?.timestamp { model.tick(now: last + 1_500_000_000) }
        var actions = ActionLog()
        let noon: UInt64 = 1_700_000_000_000_000_000 + 123_000_000
        actions.append(.attach, "attached to /tmp/notifykit/4242.sock", at: noon)
        actions.append(.stream, "stream header: ShopDemo pid 4242, format 1.0, NotifyKit 0.1.0", at: noon + 2_000_000)
        actions.append(.loss, "12 events lost (buffer-full)", at: noon + 1_500_000_000)
        return DashboardData(
            model: model, tail: tail,
            status: SessionStatus(mode: .live, eventsWhilePaused: paused ? 17 : nil), actions: actions)
    }
}

/// Feeds keys to the view state, rendering `data` (the fixture unless given) between keys as the
/// run loop does; returns the last frame.
@discardableResult
package func press(
    _ keys: [Key], _ view: inout ViewState, size: Size = Size(width: 120, height: 40),
    data: DashboardData = Fixture.data(), glyphs: Glyphs = .unicode
) -> (Canvas, FrameInfo) {
    var frame = Dashboard.render(data, view: view, size: size, glyphs: glyphs)
    for key in keys {
        _ = view.handle(key, context: frame.info)
        frame = Dashboard.render(data, view: view, size: size, glyphs: glyphs)
    }
    return frame
}

/// The keys that type `string`.
package func keystrokes(_ string: String) -> [Key] { string.map { .character($0) } }
