import ArgumentParser
import Foundation
import NotifyCommandLine
import NotifyModel
@testable import NotifySession
import NotifySystem
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyTraceViewer
import NotifyTUI
import NotifyWire
import Testing

/// The overview as the start screen: with no target it shows whatever the host has (none yet, one,
/// several), its header totals the processes, and each row says how many viewers its process has.
struct ProcessOverviewStartTests {
    typealias Host = ProcessOverviewTests.ListedHost

    /// A host with one recorded process (pid 30): the fixture, then a clock line saying `viewers`.
    static func host(viewers: UInt64) throws -> (Host, cleanup: () -> Void) {
        let path = temporaryPath("start")
        var events = Fixture.events()
        let last = events.compactMap(\.timestamp).max() ?? Fixture.base
        events.append(.tick(TraceTick(seq: 10_000, timestamp: last + 1_000_000, viewers: viewers)))
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let host = Host(traces: [30: path])
        return (host, { try? FileManager.default.removeItem(atPath: path) })
    }

    @Test("no target: the overview is the start screen, whatever the number of processes")
    func noTargetStartsOnTheOverview() throws {
        var options = try NotifyTopOptions.parse([])
        #expect(options.startsOnOverview)
        options.batch = true
        options.json = true
        #expect(options.startsOnOverview, "batch and JSON decide the same way")
        options.ssh = SSHDestination(host: "stage")
        #expect(options.startsOnOverview, "--ssh alone: the overview of that host")
        options.pid = 42
        #expect(!options.startsOnOverview, "--ssh --pid attaches directly")
        for direct in [
            { (o: inout NotifyTopOptions) in o.pid = 7 }, { $0.socket = "/tmp/x.sock" }, { $0.demo = true },
            { $0.replay = "trace.ndjson" }, { $0.record = "out.ndjson" },
        ] {
            var options = try NotifyTopOptions.parse([])
            direct(&options)
            #expect(!options.startsOnOverview)
        }
    }

    @Test("with no process the overview says how to make one inspectable, then fills in as one starts")
    func emptyOverviewFillsIn() throws {
        let (host, cleanup) = try Self.host(viewers: 1)
        defer { cleanup() }
        let session = ProcessOverviewTests.session(host)
        defer { session.overview?.stop() }
        session.overview?.refresh()
        let size = Size(width: 150, height: 20)
        var text = session.render(size: size, glyphs: .ascii).lines.joined(separator: "\n")
        #expect(text.contains(" 0 Processes (0) "))
        #expect(text.contains("NOTIFYTOP=1"))
        #expect(text.contains("/d"), "the socket directory where processes appear")
        host.set([30])
        #expect(session.pollUntil { ProcessOverviewTests.rows(session).first?.ended != nil })
        text = session.render(size: size, glyphs: .ascii).lines.joined(separator: "\n")
        #expect(!text.contains("NOTIFYTOP=1"))
        #expect(text.contains(" 0 Processes (1) "))
        // The one process is selected: Enter attaches it.
        let terminal = InMemoryTerminal(size: size, keys: [.enter])
        _ = session.run(on: terminal, maxFrames: 2)
        #expect(session.attachedProcess?.pid == 30)
        #expect(!session.view.showsOverview)
    }

    @Test("the header over the overview totals the processes listed, not an empty model's zeros")
    func headerTotals() throws {
        let (host, cleanup) = try ProcessOverviewTests.host()
        defer { cleanup() }
        let session = ProcessOverviewTests.session(host)
        defer { session.overview?.stop() }
        #expect(session.pollUntil { ProcessOverviewTests.complete(session) })
        let lines = session.render(size: Size(width: 150, height: 20), glyphs: .ascii).lines
        let models = [ProcessOverviewTests.fold(registrations: 0), ProcessOverviewTests.fold(registrations: 5)]
        let observers = models.reduce(0) { $0 + $1.liveRegistrations }
        let names = models.reduce(0) { $0 + $1.overview.names }
        #expect(lines[0].contains("2 processes"))
        #expect(lines[2].contains("observers \(observers) "), "\(lines[2])")
        #expect(lines[2].contains("names \(names) "), "\(lines[2])")
        var open: [LeakSeverity: Int] = [:]
        for model in models {
            for (severity, count) in model.overview.openFindings { open[severity, default: 0] += count }
        }
        if let errors = open[.error], errors > 0 { #expect(lines[2].contains("\(errors) error")) }
        if let warnings = open[.warning], warnings > 0 { #expect(lines[2].contains("\(warnings) warning")) }
        #expect(!lines[2].contains("observers 0 "))
        // Views 1-6 of no process still show the session's own (empty) model.
        session.view.showsOverview = false
        let names1 = session.render(size: Size(width: 150, height: 20), glyphs: .ascii).lines
        #expect(names1[2].contains("observers 0 "))
    }

    @Test("VIEWERS shows each process's viewer count; attached, the header and the Log say it too")
    func viewersColumn() throws {
        let (host, cleanup) = try Self.host(viewers: 2)
        defer { cleanup() }
        host.set([30])
        let session = ProcessOverviewTests.session(host)
        defer { session.overview?.stop() }
        #expect(session.pollUntil { ProcessOverviewTests.rows(session).first?.ended != nil })
        #expect(ProcessOverviewTests.rows(session).first?.summary.viewers == 2)
        let lines = session.render(size: Size(width: 160, height: 20), glyphs: .ascii).lines
        let header = try #require(lines.first { $0.contains("VIEWERS") })
        let row = try #require(lines.first { $0.contains("app30") })
        let column = try #require(header.range(of: "VIEWERS"))
        let cell = row[
            row.index(row.startIndex, offsetBy: header.distance(from: header.startIndex, to: column.lowerBound))...
        ]
        .prefix(7)
        #expect(cell.trimmingCharacters(in: .whitespaces) == "2", "\(row)")
        let json = BatchJSON.overviewLine(session.data, view: session.view, iteration: 1)
        #expect(json.contains(#""viewers":2"#))
        session.attach(pid: 30, now: CPUMeter.wallNanoseconds())
        let attached = session.render(size: Size(width: 160, height: 20), glyphs: .ascii).lines
        #expect(attached[2].contains("viewers 2"), "\(attached[2])")
    }

    @Test("the Log notes each new viewer count the stream reports")
    func viewersLogged() {
        let session = DashboardSession(source: .fixed([]))
        var events = Fixture.events()
        events.append(.tick(TraceTick(seq: 10_000, timestamp: Fixture.base + 10_000_000_000, viewers: 2)))
        events.append(.tick(TraceTick(seq: 10_001, timestamp: Fixture.base + 11_000_000_000, viewers: 2)))
        session.ingest(events)
        session.ingest([.tick(TraceTick(seq: 10_002, timestamp: Fixture.base + 12_000_000_000, viewers: 3))])
        let texts = session.actions.entries.map(\.text)
        #expect(texts.filter { $0.contains("viewers attached") }.count == 2)
        #expect(texts.contains { $0.hasPrefix("3 viewers attached") })
    }
}
