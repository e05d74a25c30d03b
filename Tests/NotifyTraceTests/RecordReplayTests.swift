import Foundation
import NotifyTestSupport
import NotifyWire
import NotifyKit
import NotifySystem
import NotifyTraceApp
import NotifyTraceViewer
import Testing

private let tick = Notification.Name("record.tick")

private func temporaryFile(_ name: String) -> String {
    temporaryPath("record", suffix: "-\(name)")
}

private func write(_ text: String, to path: String) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
}

private func readAll(_ reader: TraceReader) -> (events: [TraceEvent], end: TraceStreamEnd) {
    var events: [TraceEvent] = []
    while true {
        switch reader.next() {
        case .event(let event): events.append(event)
        case .idle: continue
        case .ended(let end): return (events, end)
        }
    }
}

private let header = TraceEncoder.line(
    for: .header(
        TraceHeader(
            pid: 42, process: "demo", center: "default", clockMono: 1000, clockWall: 2000, producer: "test"))
)
.trimmingCharacters(in: .newlines)

@Suite("Recording and replay", .timeLimit(.minutes(10)))
struct RecordReplayTests {
    @Test("a recorded live session replays to exactly the events the viewer received")
    func recordThenReplay() throws {
        let temporary = TemporaryDirectory()
        let center = NotifyCenter()
        let token = center.addObserver(forName: tick, object: nil, queue: nil) { _ in }
        let inspector = try NotifyInspector.start(center: center, others: .none, directory: temporary.socketDirectory)
        let path = temporaryFile("session.jsonl")
        defer { unlink(path) }
        let live = try TraceReader.connect(socketPath: inspector.socketPath)
        live.recorder = try TraceRecorder(path: path)
        try #require(eventually { inspector.viewerCount >= 1 }, "the viewer never attached")
        for _ in 0..<50 { center.post(name: tick) }
        inspector.stop()
        let (liveEvents, liveEnd) = live.readToEnd()
        #expect(liveEnd == .producerStopped("inspector-stopped"))
        live.recorder = nil
        let replay = try TraceReader.open(file: path)
        let (replayed, end) = readAll(replay)
        #expect(replayed == liveEvents)
        #expect(end == .producerStopped("inspector-stopped"))
        #expect(replay.header == live.header)
        token.cancel()
    }

    @Test("a recording cut off mid-line replays up to its last whole line")
    func truncatedRecording() throws {
        let path = temporaryFile("truncated.jsonl")
        defer { unlink(path) }
        write(header + "\n" + #"{"k":"type","id":1,"name":"A"}"# + "\n" + #"{"k":"type","id":2,"na"#, to: path)
        let (events, end) = readAll(try TraceReader.open(file: path))
        #expect(events.count == 2)
        #expect(end == .endOfFile)
    }

    @Test("a malformed line is reported with file and line number, skipped and counted")
    func malformedLineIsSkipped() throws {
        let path = temporaryFile("malformed.jsonl")
        defer { unlink(path) }
        write(
            [header, "this is not json", #"{"k":"type","id":1,"name":"A"}"#].joined(separator: "\n") + "\n", to: path)
        let reader = try TraceReader.open(file: path)
        var messages: [String] = []
        reader.onMalformedLine = { messages.append($0) }
        let (events, end) = readAll(reader)
        #expect(events.count == 2)
        #expect(end == .endOfFile)
        #expect(reader.malformedLines == 1)
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix(path + ":") == true)
        #expect(messages.first?.contains("2") == true)
    }

    @Test("strict mode stops at the first malformed line")
    func strictStops() throws {
        let path = temporaryFile("strict.jsonl")
        defer { unlink(path) }
        write([header, "{oops", #"{"k":"type","id":1,"name":"A"}"#].joined(separator: "\n") + "\n", to: path)
        let (events, end) = readAll(try TraceReader.open(file: path, strict: true))
        #expect(events.count == 1)
        guard case .failed(let message) = end else {
            Issue.record("expected a failure, got \(end)")
            return
        }
        #expect(message.hasPrefix(path))
    }

    @Test("an unknown major version is refused with a clear message")
    func unknownMajorVersion() throws {
        let path = temporaryFile("v9.jsonl")
        defer { unlink(path) }
        write(
            header.replacingOccurrences(of: #""version":"\#(TraceFormatVersion.current)""#, with: #""version":"9.0""#)
                + "\n", to: path)
        #expect {
            try TraceReader.open(file: path)
        } throws: { error in
            "\(error)".hasPrefix(path) && "\(error)".contains("9.0")
        }
    }

    @Test("a missing file gives a one-line error naming it")
    func missingFile() {
        #expect(throws: TraceError.self) { try TraceReader.open(file: "/nonexistent/notifytop.jsonl") }
        do {
            _ = try TraceReader.open(file: "/nonexistent/notifytop.jsonl")
        } catch {
            #expect(error.description.contains("/nonexistent/notifytop.jsonl"))
        }
    }
}
