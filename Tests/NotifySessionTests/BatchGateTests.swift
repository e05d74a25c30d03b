import ArgumentParser
import Foundation
import NotifyCommandLine
import NotifyModel
@testable import NotifySession
import NotifyTUI
import NotifyWire
import Testing

/// The CI gate, `--replay F --batch --view leaks --fail-on error`: a plain table of every finding
/// on standard output, and on failure one line per failing finding on standard error.
struct BatchGateTests {
    /// A name longer than any screen column.
    static let longName = "com.example.checkout.session.SessionDidChangeBecauseTheCartWasRestoredFromAnotherDevice"

    /// ``EventClockSessionTests/events(clockBase:first:)`` (an R6 error and an R10 warning) with
    /// its names made long, so every finding's text is wider than 120 columns.
    static func events() -> [TraceEvent] {
        EventClockSessionTests.events().map { event in
            switch event {
            case .registered(var registration):
                registration.name = longName + "." + (registration.name ?? "")
                return .registered(registration)
            default: return event
            }
        }
    }

    static func session() -> DashboardSession {
        DashboardSession(source: .fixed(events()), view: ViewState(view: .leaks))
    }

    @Test("--batch --view leaks prints every finding's whole text in a plain table: no keys, no chrome, no own cpu")
    func leaksTable() throws {
        let session = Self.session()
        let findings = session.model.findings
        try #require(findings.contains { $0.rule == .registrationGrowth && $0.severity == .error })
        try #require(findings.contains { $0.summary.count > 120 })
        let text = BatchPrinter.frames(session, moreViews: [], size: Size(width: 120, height: 40), glyphs: .ascii)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("Leaks of Steady pid 9 (") == true, "\(text)")
        #expect(lines[1].hasPrefix("SEV") && lines[1].contains("WHAT") && lines[1].contains("SITE"))
        for finding in findings {
            #expect(
                lines.contains { $0.contains(finding.summary) && $0.contains(finding.rule.code) },
                "\(finding.summary) in\n\(text)")
        }
        // The summary line, the column titles, one line per finding, and the final newline.
        #expect(lines.count == 2 + findings.count + 1, "\(text)")
        #expect(lines.last == "")
        #expect(!lines.dropLast().contains { $0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(!text.contains("cpu"))
        #expect(!text.contains("Quit") && !text.contains("Help"), "\(text)")
    }

    @Test("--view names,leaks in batch: the names screen as before, then the Leaks table")
    func leaksAfterAnotherView() {
        let session = DashboardSession(source: .fixed(Self.events()), view: ViewState(view: .names))
        let text = BatchPrinter.frames(session, moreViews: [.leaks], size: Size(width: 120, height: 40), glyphs: .ascii)
        let screen = session.render(size: Size(width: 120, height: 40), glyphs: .ascii).plainText
        #expect(text.hasPrefix(screen + "\n\nLeaks of Steady pid 9 ("), "\(text)")
        #expect(session.view.view == .names)
    }

    @Test("each failing finding is one line naming its rule, severity, name, site and count; the others are not named")
    func failingLines() throws {
        let session = Self.session()
        let lines = BatchPrinter.failingFindings(session.model, atLeast: .error)
        let growth = try #require(session.model.findings.first { $0.rule == .registrationGrowth })
        #expect(
            lines == [
                "R6 error name=\(Self.longName).grows site=App/Feed.swift:50 count=\(growth.occurrences)"
            ])
        #expect(BatchPrinter.failingFindings(session.model, atLeast: .info).count == session.model.findings.count)
    }
}

extension InputAndRecordingErrorTests {
    @Test("the gate's exit 3 names on standard error each finding that failed it, one line each")
    func gateNamesFailingFindings() throws {
        let path = try EventClockSessionTests.write(BatchGateTests.events())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let options = try NotifyTopOptions.parse([
            "--replay", path, "--batch", "--view", "leaks", "--fail-on", "error", "-n", "1", "--size", "120x40",
        ])
        let (status, errors) = Self.runCapturingErrors(options)
        #expect(status == NotifyTopRunner.leaksFound)
        let lines = errors.split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.hasPrefix("notifytop: --fail-on error: R6 error name=\(BatchGateTests.longName).grows")
                    && $0.contains(" site=App/Feed.swift:50 count=")
            }, "\(errors)")
        #expect(!lines.contains { $0.contains(" R10 ") }, "\(errors)")
        #expect(lines.last == "notifytop: 1 open finding of severity error or worse", "\(errors)")
    }
}
