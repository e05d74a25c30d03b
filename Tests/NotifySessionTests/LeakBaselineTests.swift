import ArgumentParser
import Foundation
import NotifyCommandLine
import NotifyLeakBaseline
import NotifyModel
@testable import NotifySession
import NotifyTUI
import Testing

/// `notifytop baseline REC > known.json`, then `--fail-on S --baseline known.json`: only findings
/// whose signature the baseline lacks fail the run; the known ones are listed apart.
struct LeakBaselineTests {
    /// The gate fixture (an R6 error, R10 and others below error) as a recording; returns its path.
    static func recording() throws -> String {
        try EventClockSessionTests.write(BatchGateTests.events())
    }

    static func baselineFile(_ baseline: LeakBaseline) throws -> String {
        try InputAndRecordingErrorTests.write(baseline.json, "known.json")
    }

    static func gate(_ recording: String, baseline: String, failOn: String = "error") throws -> (Int32, [String]) {
        let options = try NotifyTopOptions.parse([
            "--replay", recording, "--batch", "--view", "leaks", "--fail-on", failOn, "--baseline", baseline,
            "--size", "120x40",
        ])
        let (status, errors) = InputAndRecordingErrorTests.runCapturingErrors(options)
        return (status, errors.split(separator: "\n").map(String.init))
    }

    @Test("the baseline of a recording lists every finding's signature, sorted, and reads back the same")
    func baselineOfRecording() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fold = try RecordingFold(path: path)
        let baseline = LeakBaseline(model: fold.model)
        #expect(baseline.signatures == Set(fold.model.findings.map(\.signature)))
        #expect(Set(baseline.signatures.map(\.rule)).isSuperset(of: [.registrationGrowth, .neverPosted]))
        let text = baseline.json
        #expect(text.hasPrefix("{\n  \"notifytopBaseline\" : 1,\n  \"signatures\" : ["), "\(text)")
        #expect(text.contains("\"site\" : \"App/Feed.swift:50\""), "\(text)")
        #expect(try LeakBaseline(json: Data(text.utf8), source: "known.json") == baseline)
    }

    @Test("a finding in the baseline does not fail --fail-on; it is listed apart as known")
    func knownFindingPasses() throws {
        let path = try Self.recording()
        let known = try Self.baselineFile(LeakBaseline(model: RecordingFold(path: path).model))
        defer { [path, known].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let (status, lines) = try Self.gate(path, baseline: known)
        #expect(status == 0, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("notifytop: --baseline known: R6 error name=") }, "\(lines)")
        #expect(!lines.contains { $0.contains("--fail-on error:") }, "\(lines)")
        #expect(lines.last == "notifytop: 1 open finding of severity error or worse, all in the baseline")
    }

    @Test("a finding whose signature is not in the baseline fails the run; the known ones stay apart")
    func newFindingFails() throws {
        let path = try Self.recording()
        let model = try RecordingFold(path: path).model
        // Every signature but the R6 error's is known.
        let allButGrowth = LeakBaseline(
            signatures: model.findings.filter { $0.rule != .registrationGrowth }.map(\.signature))
        let known = try Self.baselineFile(allButGrowth)
        defer { [path, known].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let (status, lines) = try Self.gate(path, baseline: known)
        #expect(status == NotifyTopRunner.leaksFound, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("notifytop: --fail-on error: R6 error name=") }, "\(lines)")
        #expect(lines.last == "notifytop: 1 open finding of severity error or worse not in the baseline (0 known)")
        // At info level every other open finding counts, and each is listed as known.
        let others = model.findings.filter { $0.isOpen && $0.rule != .registrationGrowth }
        try #require(others.contains { $0.rule == .neverPosted })
        let (infoStatus, infoLines) = try Self.gate(path, baseline: known, failOn: "info")
        #expect(infoStatus == NotifyTopRunner.leaksFound)
        #expect(infoLines.count { $0.hasPrefix("notifytop: --baseline known: ") } == others.count, "\(infoLines)")
        #expect(infoLines.contains { $0.hasPrefix("notifytop: --baseline known: R10 ") }, "\(infoLines)")
        #expect(infoLines.count { $0.hasPrefix("notifytop: --fail-on info: ") } == 1, "\(infoLines)")
        #expect(
            infoLines.last
                == "notifytop: 1 open finding of severity info or worse not in the baseline (\(others.count) known)")
    }

    @Test(
        "a malformed baseline is a one-line error naming the file, exit 2",
        arguments: [
            ("not json", "not JSON"),
            (#"{"signatures": []}"#, #"missing "notifytopBaseline""#),
            (#"{"notifytopBaseline": 2, "signatures": []}"#, "baseline version 2, this notifytop reads version 1"),
            (
                #"{"notifytopBaseline": 1, "signatures": [{"rule": "R12"}]}"#,
                #"unknown rule "R12" (R1 to R11) at .signatures[0].rule"#
            ),
            (#"{"notifytopBaseline": 1, "signatures": {}}"#, "at .signatures"),
        ])
    func malformedBaseline(text: String, reason: String) throws {
        let path = try Self.recording()
        let known = try InputAndRecordingErrorTests.write(text, "bad.json")
        defer { [path, known].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let (status, lines) = try Self.gate(path, baseline: known)
        #expect(status == NotifyTopRunner.unreadableInput)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("notifytop: \(known): ") == true, "\(lines)")
        #expect(lines.first?.contains(reason) == true, "\(lines)")
    }

    @Test("a missing baseline file is a one-line error, exit 2")
    func missingBaseline() throws {
        let path = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, lines) = try Self.gate(path, baseline: "/nonexistent/known.json")
        #expect(status == NotifyTopRunner.unreadableInput)
        #expect(lines == ["notifytop: /nonexistent/known.json: cannot read the baseline file"])
    }

    @Test("with a baseline the Leaks table marks NEW each finding whose signature it lacks, and only then")
    func leaksViewMarksNew() throws {
        let session = BatchGateTests.session()
        let findings = session.model.findings
        let growth = try #require(findings.first { $0.rule == .registrationGrowth })
        try #require(findings.count >= 2)
        let size = Size(width: 120, height: 40)
        let plain = BatchPrinter.frames(session, moreViews: [], size: size, glyphs: .ascii)
        #expect(!plain.contains("NEW"), "\(plain)")
        session.status.knownFindings = Set(findings.filter { $0.rule != .registrationGrowth }.map(\.signature))
        let text = BatchPrinter.frames(session, moreViews: [], size: size, glyphs: .ascii)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("NEW  SEV"), "\(text)")
        let marked = lines.filter { $0.hasPrefix("NEW ") && !$0.hasPrefix("NEW  SEV") }
        #expect(marked.count == 1, "\(text)")
        #expect(marked.first?.contains(growth.rule.code) == true, "\(text)")
    }

    @Test("--sort names a column as the Leaks table shows it: after --baseline's NEW column, and NEW itself")
    func sortWithBaseline() throws {
        let session = BatchGateTests.session()
        session.status.knownFindings = []
        for (sort, sorted) in [("count:desc", "vCOUNT"), ("sev", "SEVv"), ("new", "NEWv")] {
            let options = try NotifyTopOptions.parse([
                "--view", "leaks", "--baseline", "known.json", "--sort", sort, "--batch",
            ])
            session.view = try #require(options.initialViewState)
            let screen = session.render(size: Size(width: 160, height: 40), glyphs: .ascii).plainText
            let header = try #require(
                screen.split(separator: "\n").first { $0.contains("RULE") && $0.contains("SITE") })
            #expect(header.split(separator: " ").contains { $0 == sorted }, "--sort \(sort): \(header)")
        }
        #expect(throws: (any Error).self) { try NotifyTopOptions.parse(["--view", "leaks", "--sort", "new"]) }
    }
}
