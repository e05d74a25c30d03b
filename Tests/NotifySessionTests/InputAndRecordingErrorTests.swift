import ArgumentParser
import Foundation
import NotifyCommandLine
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyWire
import NotifyKit
import NotifyModel
@testable import NotifySession
import NotifySystem
import NotifyTraceApp
import NotifyTraceViewer
import NotifyTUI
import Testing

/// Input that is not a trace is an error (exit 2) for replay and diff alike; damaged traces say
/// what was skipped; a recording that cannot be written says so and fails the run; nothing
/// notifytop prints carries raw control characters.
///
/// Serialized: some tests point standard error (and output) at a file while the runner runs.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct InputAndRecordingErrorTests {
    static func temporaryPath(_ name: String) -> String {
        NotifyTestSupport.temporaryPath("io", suffix: "-\(name)")
    }

    static func write(_ text: String, _ name: String) throws -> String {
        let path = temporaryPath(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func encoded(_ events: [TraceEvent]) -> [String] {
        events.map { TraceEncoder.line(for: $0).trimmingCharacters(in: .newlines) }
    }

    /// The fixture with three malformed lines put in; returns the path and the first bad line's number.
    static func damagedRecording() throws -> (path: String, firstBad: Int) {
        var lines = encoded(Fixture.events())
        lines.insert("not json", at: 20)
        lines.insert(#"{"k":"post"}"#, at: 30)
        lines.insert("{oops", at: 40)
        return (try write(lines.joined(separator: "\n") + "\n", "damaged.ndjson"), 21)
    }

    /// Runs notifytop with `options`, standard output discarded; returns its exit status and the
    /// errors it reported, one line each, as standard error would have shown them. The errors are
    /// taken from the runner, not from file descriptor 2: tests running beside this one (and the
    /// test library itself) write there too.
    static func runCapturingErrors(_ options: NotifyTopOptions) -> (Int32, String) {
        let null = open("/dev/null", O_WRONLY)
        let savedOutput = dup(STDOUT_FILENO)
        dup2(null, STDOUT_FILENO)
        var errors = ""
        let status = NotifyTopRunner.run(options) { errors += PrintableText.of($0) + "\n" }
        dup2(savedOutput, STDOUT_FILENO)
        for fd in [null, savedOutput] { close(fd) }
        return (status, errors)
    }

    @Test("--replay of input that is not a trace exits 2 with a message naming the file, in batch and interactive runs")
    func replayNotATrace() throws {
        let directory = NSTemporaryDirectory()
        let garbage = try Self.write("not a log\n\u{0}\u{1}garbage\n", "garbage.log")
        let empty = try Self.write("", "empty.log")
        let text = try Self.write("plain text\n", "text.log")
        let v2 = try Self.write(
            #"{"k":"header","format":"notifytop-trace","version":"2.0","pid":1,"process":"x","center":"c","clockMono":1,"clockWall":1,"producer":"p"}"#
                + "\n", "v2.log")
        defer { for path in [garbage, empty, text, v2] { unlink(path) } }
        for path in [garbage, empty, text, v2, directory, "/dev/null"] {
            for batch in [true, false] {
                let options = try NotifyTopOptions.parse(
                    ["--replay", path, "--view", "leaks", "--fail-on", "error"] + (batch ? ["--batch"] : []))
                let (status, errors) = Self.runCapturingErrors(options)
                #expect(status == NotifyTopRunner.unreadableInput, "\(path) batch \(batch)")
                #expect(
                    errors.hasPrefix("notifytop: \(path):") && errors.split(separator: "\n").count == 1, "\(errors)")
            }
        }
    }

    @Test("--replay of a recording with another major version's header after its first line exits 2, as diff does")
    func replayMidFileMajorVersion() throws {
        let path = HostileReportTests.seed("mid-file-major-version")
        for mode in ["--batch", "--json"] {
            let (status, errors) = Self.runCapturingErrors(try NotifyTopOptions.parse(["--replay", path, mode]))
            #expect(status == NotifyTopRunner.unreadableInput, "\(mode)")
            #expect(errors.split(separator: "\n").count == 1, "\(errors)")
            let expected = "notifytop: \(path): line 4: trace format version 2.0 is not supported"
            #expect(errors.hasPrefix(expected), "\(errors)")
        }
        #expect(throws: RecordingFold.Failure.self) { try RecordingFold(path: path) }
    }

    @Test("a replay with 3 bad lines folds the rest and says how many were skipped: action log, and stderr in batch")
    func replaySkippedLines() throws {
        let (path, firstBad) = try Self.damagedRecording()
        defer { unlink(path) }
        let summary = "3 lines skipped (first at line \(firstBad))"

        let session = DashboardSession(source: .replay(try ReplayFeed(path: path, speed: 0)))
        for now in 1...3 { session.poll(now: UInt64(now)) }
        #expect(session.isEnded)
        #expect(session.actions.entries.contains { $0.text == "\(path): \(summary)" })
        #expect(session.model.names == DashboardSession(source: .fixed(Fixture.events())).model.names)

        let options = try NotifyTopOptions.parse(["--replay", path, "--json"])
        let (status, errors) = Self.runCapturingErrors(options)
        #expect(status == 0)
        #expect(errors.contains("notifytop: \(path): \(summary)"), "\(errors)")
    }

    @Test("diff reads as replay does: not a trace is an error naming the file; bad lines are skipped and said")
    func diffLikeReplay() throws {
        let garbage = try Self.write("not a log\n", "garbage.log")
        let (damaged, firstBad) = try Self.damagedRecording()
        defer { unlink(garbage); unlink(damaged) }
        #expect {
            try RecordingFold(path: garbage)
        } throws: { error in
            "\(error)".hasPrefix(garbage + ":") && "\(error)".contains("line 1")
        }
        let fold = try RecordingFold(path: damaged)
        #expect(fold.skippedLines == "3 lines skipped (first at line \(firstBad))")
        let clean = try Self.write(Self.encoded(Fixture.events()).joined(separator: "\n") + "\n", "clean.ndjson")
        defer { unlink(clean) }
        let diff = RecordingDiff(try RecordingFold(path: clean), fold)
        #expect(diff.text.contains("note: B \(damaged): 3 lines skipped"), "\(diff.text)")
        #expect(diff.json.contains("3 lines skipped"))
    }

    @Test("diff prints control characters from names and summaries as '?'")
    func diffSanitised() throws {
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
        let events = Fixture.events().map { event -> TraceEvent in
            guard case .posted(var post) = event, post.name == "cartDidChange" else { return event }
            post.name = hostile
            return .posted(post)
        }
        let a = try Self.write(Self.encoded(Fixture.events()).joined(separator: "\n") + "\n", "a.ndjson")
        let b = try Self.write(Self.encoded(events).joined(separator: "\n") + "\n", "b.ndjson")
        defer { unlink(a); unlink(b) }
        let text = RecordingDiff(try RecordingFold(path: a), try RecordingFold(path: b)).text
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(text.debugDescription)")
        #expect(text.contains("?]0;pwned??[2J"))
        #expect(PrintableText.of("a\u{9B}b\u{7F}") == "a?b?")
    }

    @Test("a --record file that hits a full disk: the header, the log, the final message and the exit status say so")
    func liveRecordingFails() throws {
        let path = try Self.write(Self.encoded(Fixture.events()).joined(separator: "\n") + "\n", "source.ndjson")
        defer { unlink(path) }
        let reader = try TraceReader.open(file: path)
        reader.recorder = try TraceRecorder(path: "/dev/full")
        let session = DashboardSession(source: .live(LiveFeed(reader: reader)), recordingPath: "/dev/full")
        var now: UInt64 = 0
        for _ in 0..<2_000 where !session.isEnded {
            now += 10_000_000
            session.poll(now: now)
            usleep(2_000)
        }
        session.stopFeed()
        session.checkRecording()
        #expect(
            session.recordingFailed,
            "\(session.actions.entries.map(\.text)) \(String(describing: reader.recorder?.outcome))")
        let header = session.render(size: Size(width: 160, height: 30), glyphs: .ascii).lines[0]
        #expect(header.contains("[REC FAILED]") && !header.contains("[REC]"), "\(header)")
        let entry = session.actions.entries.last { $0.kind == .recording }
        #expect(entry?.text.contains("No space left on device") == true, "\(String(describing: entry))")
        #expect(entry?.text.contains("recording stopped at 0 bytes, the file is incomplete") == true)
    }

    @Test("notifytop --record onto a full disk exits non-zero and states the bytes written")
    func recordRunFails() throws {
        let temporary = NotifyTestSupport.temporaryPath("io-sockets")
        let center = NotifyCenter()
        let inspector = try NotifyInspector.start(
            center: center, others: .none, directory: SocketDirectory(path: temporary))
        defer {
            inspector.stop()
            try? FileManager.default.removeItem(atPath: temporary)
        }
        let options = try NotifyTopOptions.parse([
            "--socket", inspector.socketPath, "--record", "/dev/full", "--batch", "--no-reattach", "--delay", "50ms",
        ])
        let (status, errors) = Self.runCapturingErrors(options)
        #expect(status == NotifyTopRunner.recordingFailed)
        #expect(errors.contains("recording stopped at 0 bytes, the file is incomplete"), "\(errors)")
        #expect(!errors.contains("trace saved"))
    }

    @Test("r onto a full disk: the recording stops, saying so, and the run fails")
    func runtimeRecordingFails() {
        let session = DashboardSession(source: .fixed(Fixture.events()))
        session.recordingPath = "/dev/full"
        let terminal = InMemoryTerminal(size: Size(width: 120, height: 24), keys: [.char("r")])
        _ = session.run(on: terminal, maxFrames: 2)
        #expect(session.status.recordingPath == "/dev/full")
        terminal.pendingKeys = [.char("r")]
        _ = session.run(on: terminal, maxFrames: 2)
        #expect(session.recordingFailed)
        #expect(
            session.status.message?.contains("the file is incomplete") == true,
            "\(String(describing: session.status.message))")
        #expect(session.status.recordingFailure != nil)
        #expect(
            session.actions.entries.contains { $0.kind == .recording && $0.text.contains("No space left on device") })
    }

    @Test("a save that fails part way leaves no file, and no temporary file, behind")
    func failedSaveLeavesNothing() throws {
        let directory = Self.temporaryPath("saves")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/notifytop-names-1.txt"
        #expect(throws: TraceError.self) {
            try ViewExporter.writeNew(Array(repeating: UInt8(ascii: "x"), count: 10_000), to: path, limit: 4_096)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        try ViewExporter.writeNew(Array("whole\n".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "whole\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["notifytop-names-1.txt"])
        #expect(throws: TraceError.self) { try ViewExporter.writeNew(Array("again\n".utf8), to: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "whole\n", "an existing file is never replaced")
    }

    @Test("r onto a link planted at the recording's name refuses, and the link's target is left as it was")
    func recordingRefusesAPlantedLink() throws {
        let target = try Self.write("someone else's file\n", "link-target")
        let link = Self.temporaryPath("planted-r.ndjson")
        defer { for path in [target, link] { unlink(path) } }
        #expect(symlink(target, link) == 0)
        let session = DashboardSession(source: .fixed(Fixture.events()))
        session.recordingPath = link
        let terminal = InMemoryTerminal(size: Size(width: 120, height: 24), keys: [.char("r")])
        _ = session.run(on: terminal, maxFrames: 2)
        #expect(session.status.message?.contains("exists") == true, "\(String(describing: session.status.message))")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "someone else's file\n")
        var info = stat()
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link itself is still a link")
    }

    @Test("--record onto an existing file or a planted link exits with one line and leaves both as they were")
    func recordOptionRefusesExistingNames() throws {
        let temporary = Self.temporaryPath("sockets")
        let inspector = try NotifyInspector.start(
            center: NotifyCenter(), others: .none, directory: SocketDirectory(path: temporary))
        let existing = try Self.write("an earlier recording\n", "existing.ndjson")
        let target = try Self.write("someone else's file\n", "record-target")
        let link = Self.temporaryPath("planted-record.ndjson")
        defer {
            inspector.stop()
            try? FileManager.default.removeItem(atPath: temporary)
            for path in [existing, target, link] { unlink(path) }
        }
        #expect(symlink(target, link) == 0)
        for path in [existing, link] {
            let options = try NotifyTopOptions.parse([
                "--socket", inspector.socketPath, "--record", path, "--batch", "--no-reattach",
            ])
            let (status, errors) = Self.runCapturingErrors(options)
            #expect(status != 0, "\(path)")
            #expect(errors.contains("\(path) exists"), "\(errors)")
        }
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "an earlier recording\n")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "someone else's file\n")
    }

    @Test("--no-reattach --batch -n N ends with its target, printing the last frame once")
    func noReattachBatchEndsWithItsTarget() throws {
        let temporary = Self.temporaryPath("ending")
        let center = NotifyCenter()
        let inspector = try NotifyInspector.start(
            center: center, others: .none, directory: SocketDirectory(path: temporary))
        let output = Self.temporaryPath("frames.ndjson")
        defer {
            try? FileManager.default.removeItem(atPath: temporary)
            unlink(output)
        }
        // The target ends once the viewer has attached and drawn a few frames: stopping it at a
        // fixed time raced the viewer's attach on a slow build.
        let stopper = Thread {
            _ = eventually(seconds: 30) { inspector.viewerCount > 0 }
            usleep(300_000)
            inspector.stop()
        }
        stopper.start()
        let options = try NotifyTopOptions.parse([
            "--socket", inspector.socketPath, "--batch", "--json", "--no-reattach", "-n", "400", "--delay", "50ms",
        ])
        let file = open(output, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        let savedOutput = dup(STDOUT_FILENO)
        dup2(file, STDOUT_FILENO)
        let status = NotifyTopRunner.run(options) { _ in }
        dup2(savedOutput, STDOUT_FILENO)
        for fd in [file, savedOutput] { close(fd) }
        // Standard output is the process's: only this run's frames are JSON objects.
        let frames = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("{") }
        #expect(status == 0)
        #expect(frames.count < 100, "\(frames.count) frames for a target that ended after about 6")
        #expect(frames.last?.contains("inspector-stopped") == true, "\(String(describing: frames.last))")
        #expect(frames.filter { $0.contains("inspector-stopped") }.count == 1, "the ended frame is printed once")
    }

    @Test("Ctrl-S passes over a link planted at its next name, dangling or not, leaving its target as it was")
    func exportPassesOverPlantedLinks() throws {
        let directory = Self.temporaryPath("planted-saves")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/someone-else.txt"
        try Data("someone else's file\n".utf8).write(to: URL(fileURLWithPath: target))
        #expect(symlink(target, directory + "/notifytop-names-1.txt") == 0)
        #expect(symlink(directory + "/nowhere", directory + "/notifytop-names-2.txt") == 0)
        var exporter = ViewExporter()
        exporter.directory = directory
        let content = TableContent(view: "names", columns: ["NAME"], rows: [["cart"]])
        let path = try exporter.export(content, as: .text)
        #expect(path == directory + "/notifytop-names-3.txt")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "someone else's file\n")
        #expect(access(directory + "/nowhere", F_OK) != 0, "a dangling link is not followed into a new file")
    }
}
