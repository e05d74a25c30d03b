import Foundation
import NotifyCommandLine
import NotifyModel
@testable import NotifySession
import NotifySystem
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyTUI
import NotifyWire
import Testing

/// The reports and exports of `diff`, `explain` and `export` on recordings a hostile producer
/// wrote: numbers at their limits never trap, a failed export leaves no file, and no bidi or
/// control character reaches the terminal. The recordings are the read-path fuzzer's seeds.
struct HostileReportTests {
    /// A seed of the read-path fuzzer (`Tests/Fuzz/seeds/`).
    static func seed(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/seeds/\(name).jsonl").path
    }

    @Test(
        "diff's text report of a history claiming 2^63 deliveries, or a recording 2^64 − 1 ns long, saturates",
        arguments: ["diff-history-deliveries", "diff-long-recording"])
    func diffReportSaturates(seed: String) throws {
        let fold = try RecordingFold(path: Self.seed(seed))
        let diff = RecordingDiff(fold, fold)
        let text = diff.text
        #expect(text.split(separator: "\n").contains { $0.hasPrefix("cartDidChange") }, "\(text)")
        #expect(!diff.json.isEmpty)
        _ = ExplanationReport(fold.model.explain(name: "cartDidChange")).text
    }

    @Test("a rate past 2^64 − 1 per second shows as the most a count can be, never trapping")
    func hugeRateSaturates() {
        #expect(Format.rate(0x1p70) == Format.count(.max))
        #expect(Format.rate(Double(UInt64.max)) == Format.count(.max))
        #expect(RecordingDiff.rate(.max, over: 1_000_000_000) == "\(Double(UInt64.max))")
        #expect(RecordingDiff.rate(1 << 63, over: 1_000_000_000) == "\(Double(1 << 63 as UInt64))")
        #expect(RecordingDiff.seconds(.max) == "18446744073.7 s")
    }

    @Test("export --perfetto of thread 2^64 − 1 writes the file, its notifytop track on an id no thread has")
    func perfettoThreadAtTheLimit() throws {
        let directory = TemporaryDirectory("perfetto-limit")
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let out = directory.path + "/out.json"
        let (counts, skipped) = try PerfettoExport.export(recording: Self.seed("perfetto-max-thread"), to: out)
        #expect(counts.deliveries == 1 && counts.posts == 1 && skipped == nil)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        let names = events.filter { ($0["name"] as? String) == "thread_name" }
        let tracks = names.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(tracks.sorted() == ["notify-demo", "notifytop"])
        let ids = Set(names.compactMap { ($0["tid"] as? NSNumber)?.uint64Value })
        #expect(ids.count == 2 && ids.contains(.max), "the notifytop track shares no thread's id: \(ids)")
    }

    @Test("an export is named only once it is whole: while it runs nothing is at OUT, and a failed one leaves no file")
    func exportAppearsWhole() throws {
        let directory = TemporaryDirectory("perfetto-whole")
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let out = directory.path + "/out.json"
        var seenDuringExport: [Bool] = []
        var decoder = TraceDecoder()
        decoder.feed(try Data(contentsOf: URL(fileURLWithPath: Self.seed("bidi-name"))))
        decoder.finish()
        var events: [TraceEvent] = []
        while let event = try decoder.next() { events.append(event) }
        let watched = events.lazy.map { event -> TraceEvent in
            seenDuringExport.append(NewFile.isTaken(out))
            return event
        }
        _ = try PerfettoExport.export(events: watched, to: out)
        #expect(!seenDuringExport.isEmpty && !seenDuringExport.contains(true), "OUT appeared before it was whole")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.json"])

        // A recording whose stream breaks off (another format's header) is refused, with nothing left.
        let failed = directory.path + "/failed.json"
        #expect(throws: PerfettoExport.Failure.self) {
            try PerfettoExport.export(recording: Self.seed("mid-file-major-version"), to: failed)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.json"])
    }

    @Test("r stopped after a line numbered 2^64 − 1 ends the file without trapping, and the file replays")
    func userStopAfterTheLastNumber() throws {
        let directory = TemporaryDirectory("stop-at-limit")
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        var memory = SessionRecorder.Memory()
        let events = Fixture.events()
        memory.observe(events[0])
        let path = directory.path + "/r.ndjson"
        var recorder = try SessionRecorder(path: path, memory: memory)
        recorder.write(.tick(TraceTick(seq: .max, timestamp: 5_000_000_000)))
        recorder.writeUserStop()
        recorder.flush()
        let last = try #require(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").last)
        #expect(last.hasPrefix(#"{"k":"end","seq":18446744073709551615,"#), "\(last)")
        _ = try RecordingFold(path: path)
    }

    @Test("bidi overrides, isolates, marks and C1 controls never reach the terminal: diff, explain, ssh errors")
    func bidiIsEscapedEverywhere() throws {
        #expect(PrintableText.of("a\u{202E}b\u{2066}c\u{2069}\u{200E}\u{200F}\u{85}\u{1B}") == "a?b?c?????")
        #expect(PrintableText.lines("x\u{202A}\ny\u{202D}") == "x?\ny?")
        let fold = try RecordingFold(path: Self.seed("bidi-name"))
        let outputs = [
            RecordingDiff(fold, fold).text,
            ExplanationReport(fold.model.explain(name: "cart\u{202E}DidChange\u{2066}x\u{2069}\u{200F}\u{85}")).text,
            SSHFailure.message(
                .exited(255), standardError: "ssh: \u{202E}lanimret\u{2069} failed\n", answered: false, host: "h",
                remoteNotifytop: "notifytop", timeoutSeconds: 20),
            NotifyTopRunner.errorText("notifytop: \(Self.seed("bidi-name")): cart\u{202E}DidChange"),
        ]
        for output in outputs {
            #expect(output.contains("cart?DidChange") || output.contains("?lanimret?"), "\(output)")
            let hidden = output.unicodeScalars.filter {
                (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
                    || (0x200E...0x200F).contains($0.value) || (0x80...0x9F).contains($0.value)
                    || ($0.value < 0x20 && $0 != "\n")
            }
            #expect(hidden.isEmpty, "\(output.debugDescription)")
        }
    }
}
