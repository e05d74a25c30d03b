import Foundation
import NotifySystem
import NotifyTestSupport
import NotifyWire
import NotifyKit
import NotifyTraceApp
import NotifyTraceViewer
import Testing

private let tick = Notification.Name("recorder.tick")

/// A recording states what it wrote: write errors are caught and bytes reach the disk within about
/// a second, not only every 64 KiB.
@Suite("Trace recorder", .timeLimit(.minutes(10)))
struct TraceRecorderTests {
    static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : -1
    }

    @Test("a write error on a full disk stops the recording and says how many bytes the file holds")
    func fullDisk() {
        // /dev/full refuses every write with ENOSPC, as a full filesystem does.
        guard let recorder = try? TraceRecorder(path: "/dev/full") else {
            Issue.record("cannot open /dev/full")
            return
        }
        recorder.write(Array(repeating: UInt8(ascii: "x"), count: 100))
        #expect(recorder.failure == nil, "nothing written yet")
        #expect(!recorder.flush())
        #expect(recorder.failure?.description.contains("No space left on device") == true)
        #expect(recorder.bytesWritten == 0)
        #expect(recorder.outcome.contains("0 bytes") && recorder.outcome.contains("incomplete"), "\(recorder.outcome)")
        recorder.write(Array(repeating: UInt8(ascii: "y"), count: 100_000))
        #expect(recorder.bytesWritten == 0, "a failed recording writes nothing more")
    }

    @Test("a complete recording's outcome states the bytes in the file")
    func outcome() throws {
        let path = TraceInputTests.temporaryPath("outcome.jsonl")
        defer { unlink(path) }
        let recorder = try TraceRecorder(path: path)
        recorder.write(Array("hello\n".utf8))
        #expect(recorder.flush())
        #expect(recorder.outcome == "recorded 6 bytes to \(path)")
        #expect(Self.fileSize(path) == 6)
    }

    @Test("a live recording reaches the disk about a second after an event, without closing or 64 KiB")
    func flushCadence() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let token = center.addObserver(forName: tick, object: nil, queue: nil) { _ in }
        defer { token.cancel() }
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        defer { inspector.stop() }
        let path = TraceInputTests.temporaryPath("cadence.jsonl")
        defer { unlink(path) }
        let reader = try TraceReader.connect(socketPath: inspector.socketPath)
        reader.recorder = try TraceRecorder(path: path)
        try #require(eventually { inspector.viewerCount >= 1 }, "the viewer never attached")
        center.post(name: tick)
        // The reader loop, as LiveFeed runs it: read until the post arrives, then idle.
        _ = reader.read { $0.postName == tick.rawValue }
        let deadline = Date(timeIntervalSinceNow: 10)
        while Self.fileSize(path) < reader.byteCount && Date() < deadline {
            _ = reader.next(timeoutMilliseconds: 50)
        }
        #expect(reader.byteCount > 0)
        #expect(Self.fileSize(path) == reader.byteCount, "the bytes read are on disk while the recording is open")
        #expect(reader.byteCount < 64 * 1024)
    }

    static func contents(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }

    @Test("a recording never truncates, overwrites or follows a link at its name")
    func createsExclusively() throws {
        let existing = TraceInputTests.temporaryPath("existing.ndjson")
        let target = TraceInputTests.temporaryPath("link-target")
        let link = TraceInputTests.temporaryPath("planted.ndjson")
        let dangling = TraceInputTests.temporaryPath("dangling.ndjson")
        defer { for path in [existing, target, link, dangling, dangling + ".target"] { unlink(path) } }
        #expect(FileManager.default.createFile(atPath: existing, contents: Data("earlier recording\n".utf8)))
        #expect(FileManager.default.createFile(atPath: target, contents: Data("someone else's file\n".utf8)))
        #expect(symlink(target, link) == 0)
        #expect(symlink(dangling + ".target", dangling) == 0)
        for path in [existing, link, dangling] {
            #expect(throws: TraceError.self, "\(path) was opened") { _ = try TraceRecorder(path: path) }
        }
        #expect(Self.contents(existing) == "earlier recording\n", "not truncated")
        #expect(Self.contents(target) == "someone else's file\n", "the link's target is untouched")
        #expect(access(dangling + ".target", F_OK) != 0, "a dangling link is not followed into a new file")
        do {
            _ = try TraceRecorder(path: existing)
        } catch {
            #expect("\(error)" == "\(existing) exists: notifytop does not overwrite a file")
        }
        let null = try TraceRecorder(path: "/dev/null")
        null.write(Array("x\n".utf8))
        #expect(null.flush(), "a device is written to as it is")
    }

    @Test("numbered recordings pass over taken names and planted links, never replacing them")
    func firstFreeName() throws {
        let stem = TraceInputTests.temporaryPath("numbered")
        func name(_ number: Int) -> String { "\(stem)-\(number).ndjson" }
        let target = stem + "-target"
        defer { for path in [name(1), name(2), name(3), target] { unlink(path) } }
        #expect(FileManager.default.createFile(atPath: name(1), contents: Data("one\n".utf8)))
        #expect(FileManager.default.createFile(atPath: target, contents: Data("target\n".utf8)))
        #expect(symlink(target, name(2)) == 0)
        let recorder = try TraceRecorder.firstFree(from: 1, name)
        #expect(recorder.path == name(3))
        #expect(Self.contents(name(1)) == "one\n")
        #expect(Self.contents(target) == "target\n")
        #expect(throws: TraceError.self) { _ = try TraceRecorder.firstFree(from: 1, attempts: 2, name) }
    }
}
