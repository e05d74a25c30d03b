import NotifyWire
import NotifyModel
@testable import NotifySession
import NotifyTUI
import Testing

/// The Observers view shows an owner-bound registration with a released token as live and bound
/// to its owner, never orphaned or dropped.
struct OwnerBoundRowTests {
    static func events() -> [TraceEvent] {
        [
            .header(
                TraceHeader(
                    pid: 5, process: "App", center: "default", clockMono: 1_000, clockWall: 0,
                    producer: "test")),
            .thread(TraceThread(seq: 1, timestamp: 1_000, id: 1, systemID: 5, name: "main", isMain: true)),
            .type(TraceType(id: 1, name: "App.Screen")),
            .object(TraceObject(id: 2, type: 1, address: 0x7000)),
            .callsite(TraceCallsite(id: 3, file: "App/Screen.swift", line: 12)),
            .registered(
                TraceRegistration(
                    seq: 2, timestamp: 2_000, thread: 1, id: 41, name: "screenDidLoad", kind: .ownerBound, observer: 2,
                    object: nil, target: .posting, targetLabel: nil, callsite: 3, preexisting: false,
                    capturesObserverStrongly: false)),
            .tokenDropped(TraceTokenDrop(seq: 3, timestamp: 3_000, thread: 1, registration: 41)),
        ]
    }

    @Test("STATE reads live and TOKEN reads owner for an owner-bound registration whose token was released")
    func ownerBoundRowText() throws {
        let session = DashboardSession(source: .fixed(Self.events()))
        let terminal = InMemoryTerminal(size: Size(width: 120, height: 20), keys: [.char("2")])
        _ = session.run(on: terminal, maxFrames: 2)
        let frame = try #require(terminal.frames.last)
        let row = try #require(frame.lines.first { $0.contains("#41") }, "\(frame.lines.joined(separator: "\n"))")
        #expect(row.contains(" live "), "\(row)")
        #expect(row.contains(" owner "), "\(row)")
        #expect(!row.contains("orphaned") && !row.contains("dropped"), "\(row)")
    }
}
