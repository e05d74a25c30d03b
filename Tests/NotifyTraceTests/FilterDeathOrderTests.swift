import Foundation
import NotifyKit
import NotifyModel
import NotifyTestSupport
import NotifyTraceApp
import NotifyTraceViewer
import NotifyWire
import Testing

private let saved = Notification.Name("trace.filter-death.saved")

private final class Document: Sendable {}

/// A token released because its object filter died is told after that death, whenever the viewer
/// attached: live, in the center's snapshot for a new probe, and in the exporter's snapshot for a
/// later viewer. R1 then judges every stream alike: a dead filter's released token orphans nothing.
@Suite("A filter object's death before the token release it caused", .serialized, .timeLimit(.minutes(10)))
struct FilterDeathOrderTests {
    /// The kinds of the events that concern registration `id`, in order.
    static func kinds(of id: UInt64, in lines: [TraceEvent]) -> [TraceLineKind?] {
        lines.compactMap { line in
            switch line {
            case .registered(let value) where value.id == id: line.kind
            case .objectDead(let value) where value.registration == id: line.kind
            case .tokenDropped(let value) where value.registration == id: line.kind
            case .removed(let value) where value.registration == id: line.kind
            default: nil
            }
        }
    }

    static func lines(_ events: [ProbeEvent], converter: inout ProbeEventConverter) -> [TraceEvent] {
        var lines: [TraceEvent] = []
        for event in events { converter.translate(event, into: &lines) }
        return lines
    }

    static func orphanFindings(_ lines: [TraceEvent]) -> [LeakFinding] {
        var state = InspectorState()
        state.apply(
            .header(
                TraceHeader(pid: 1, process: "test", center: "default", clockMono: 0, clockWall: 0, producer: "test")))
        for line in lines { state.apply(line) }
        return state.findings.filter { $0.rule == .orphanedRegistration }
    }

    @Test("a probe attached after the filter died and the token was released reads the death first")
    func probeAttachedAfterBoth() {
        let center = NotifyCenter()
        var document: Document? = Document()
        var token: NotifyToken? = center.addObserver(forName: saved, object: document, queue: nil) { _ in }
        let id = token!.registrationID
        document = nil
        #expect(token?.isActive == false)
        token = nil
        let probe = InMemoryProbe()
        let attachment = center.attach(probe)
        defer { attachment.detach() }
        var converter = ProbeEventConverter()
        let lines = Self.lines(probe.events, converter: &converter)
        #expect(Self.kinds(of: id, in: lines) == [.registered, .objectDead, .tokenDropped])
        #expect(Self.orphanFindings(lines).isEmpty)
    }

    @Test("an attached probe reads the death before the release, though no look found it yet")
    func liveReleaseAfterDeath() {
        let center = NotifyCenter()
        let probe = InMemoryProbe()
        let attachment = center.attach(probe)
        defer { attachment.detach() }
        var document: Document? = Document()
        var token: NotifyToken? = center.addObserver(forName: saved, object: document, queue: nil) { _ in }
        let id = token!.registrationID
        document = nil
        token = nil
        center.lookForDeadObjectFilters()
        var converter = ProbeEventConverter()
        let lines = Self.lines(probe.events, converter: &converter)
        #expect(Self.kinds(of: id, in: lines) == [.registered, .objectDead, .tokenDropped], "reported once, first")
        #expect(Self.orphanFindings(lines).isEmpty)
    }

    @Test("a later viewer's snapshot keeps the order the stream told: death then release, or release then death")
    func exporterSnapshotKeepsTheOrder() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter(label: "filter-death")
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let first = try TraceReader.connect(socketPath: inspector.socketPath)
        _ = first.read(until: { if case .tick = $0 { true } else { false } })
        var deadFirst: Document? = Document()
        var releasedFirst: Document? = Document()
        var early: NotifyToken? = center.addObserver(forName: saved, object: deadFirst, queue: nil) { _ in }
        var late: NotifyToken? = center.addObserver(forName: saved, object: releasedFirst, queue: nil) { _ in }
        let (deadFirstID, releasedFirstID) = (early!.registrationID, late!.registrationID)
        deadFirst = nil
        early = nil
        late = nil
        releasedFirst = nil
        let whole = first.read(untilThe: 2) { if case .objectDead = $0 { true } else { false } }
        #expect(Self.kinds(of: deadFirstID, in: whole) == [.registered, .objectDead, .tokenDropped])
        #expect(Self.kinds(of: releasedFirstID, in: whole) == [.registered, .tokenDropped, .objectDead])

        let second = try TraceReader.connect(socketPath: inspector.socketPath)
        let snapshot = second.read(until: { if case .tick = $0 { true } else { false } })
        #expect(Self.kinds(of: deadFirstID, in: snapshot) == [.registered, .objectDead, .tokenDropped])
        #expect(Self.kinds(of: releasedFirstID, in: snapshot) == [.registered, .tokenDropped, .objectDead])
        let wholeOrphans = Self.orphanFindings(whole).map { $0.evidence.registrations }
        let lateOrphans = Self.orphanFindings(snapshot).map { $0.evidence.registrations }
        #expect(wholeOrphans == lateOrphans)
        #expect(lateOrphans == [[releasedFirstID]], "a release while the filter lived is R1")
    }
}
