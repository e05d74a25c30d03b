import Foundation
import NotifyModel
@testable import NotifySession
import NotifyTUI
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyWire
import Testing

/// The Leaks view, its batch table and its JSON list one row per signature with how many findings
/// share it; the row stands for the most pressing of them.
struct LeakGroupingTests {
    /// Two `App.Screen` instances whose handlers at one site capture them (two R4 findings, one
    /// signature), and an `App.Other` at the same site (another signature).
    static func events(removeSecond: Bool = false) -> [TraceEvent] {
        var s = TraceScript()
        s.register(1, "a", kind: .ownerBound, observer: 7, site: 10, captures: true)
        s.advance(1_000_000)
        s.register(2, "a", kind: .ownerBound, observer: 8, site: 10, captures: true)
        s.advance(1_000_000)
        s.register(3, "a", kind: .ownerBound, observer: 9, site: 10, captures: true, ownerType: "App.Other")
        if removeSecond {
            s.advance(1_000_000)
            s.remove(2, reason: .explicit)
        }
        return s.events
    }

    static func groups(_ data: DashboardData) -> [LeakGroup] {
        guard case .leaks(let groups) = ViewRows.ordered(data, view: ViewState(view: .leaks)) else {
            Issue.record("not the leaks rows")
            return []
        }
        return groups.filter { $0.finding.rule == .selfRetainingHandler }
    }

    @Test("findings of one signature are one row with their count; the latest open one stands for them")
    func oneRowPerSignature() throws {
        let data = Fixture.data(Self.events())
        let findings = data.model.findings.filter { $0.rule == .selfRetainingHandler }
        try #require(findings.count == 3)
        let groups = Self.groups(data)
        #expect(groups.count == 2)
        let screen = try #require(groups.first { $0.signature.ownerType == "App.Screen" })
        #expect(screen.count == 2)
        #expect(screen.finding.key.subject == .observer(8))
        let shared = findings.filter { $0.signature == screen.signature }
        #expect(screen.occurrences == shared.map(\.occurrences).reduce(0, +))
        #expect(groups.first { $0.signature.ownerType == "App.Other" }?.count == 1)
    }

    @Test("an open finding stands for its group before a fixed one, even an earlier one")
    func openBeforeFixed() throws {
        let data = Fixture.data(Self.events(removeSecond: true))
        let screen = try #require(Self.groups(data).first { $0.signature.ownerType == "App.Screen" })
        #expect(screen.count == 2)
        #expect(screen.finding.key.subject == .observer(7))
        #expect(screen.finding.isOpen)
    }

    @Test("the batch Leaks table lists one line per signature with its count")
    func batchTable() throws {
        let data = Fixture.data(Self.events())
        let lines = BatchPrinter.leaksTable(data, view: ViewState(view: .leaks)).split(separator: "\n")
        let r4 = lines.filter { $0.contains("R4 ") }
        #expect(r4.count == 2, "\(lines)")
        let header = try #require(lines.first { $0.hasPrefix("SEV") })
        #expect(header.contains("  N  COUNT"), "\(header)")
        #expect(r4.contains { $0.contains("App.Screen") && $0.contains("  2  ") }, "\(r4)")
    }

    @Test("JSON leak rows keep their fields and add the signature and how many findings share it")
    func jsonRows() throws {
        let data = Fixture.data(Self.events())
        let line = BatchJSON.line(data, view: ViewState(view: .leaks), iteration: 1)
        let frame = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let rows = try #require(frame["rows"] as? [[String: Any]]).filter { $0["rule"] as? String == "R4" }
        #expect(rows.count == 2)
        let screen = try #require(
            rows.first { ($0["signature"] as? [String: Any])?["owner"] as? String == "App.Screen" })
        #expect(screen["signature_count"] as? Int == 2)
        #expect(screen["key"] as? String == "R4 obj#8")
        #expect((screen["signature"] as? [String: Any])?["site"] as? String == "App/File.swift:10")
        for field in ["name", "title", "severity", "open", "summary", "occurrences", "count", "age_ns", "site"] {
            #expect(screen[field] != nil, "\(field)")
        }
    }
}
