import Foundation
import NotifySession
@testable import NotifySystem
import NotifyTestSupport
import NotifyTraceViewer
import NotifyWire
import Testing

/// `--record FILE` and `q`: the session stops reading while the stream goes on, and the file ends
/// with a line saying the user stopped, so its replay does not read as cut off.
@Suite("Recording a session the user quits", .timeLimit(.minutes(10)))
struct RecordingQuitTests {
    @Test("the file ends with recording-stopped after every whole line; a line half read is left out")
    func quitEndsTheRecording() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        let events = LiveFeedTests.stream(posts: 40)
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        // Half of a further post: the stream goes on past what the viewer read.
        bytes += Array(#"{"k":"p","seq":999999,"t":"#.utf8)
        #expect(bytes.withUnsafeBytes { write(pair[1], $0.baseAddress, $0.count) } == bytes.count)

        let path = temporaryPath("record-quit", suffix: ".ndjson")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = TraceReader(source: .socket(UnixSocket(descriptor: pair[0])), origin: "test")
        reader.recorder = try TraceRecorder(path: path)
        let feed = LiveFeed(reader: reader)
        var received = 0
        let deadline = Date(timeIntervalSinceNow: 20)
        while received < events.count, Date() < deadline {
            _ = feed.drain { batches in for batch in batches { received += batch.count } }
            usleep(2_000)
        }
        #expect(received == events.count)
        feed.stop()

        let replay = try TraceReader.open(file: path)
        var replayed: [TraceEvent] = []
        var end: TraceStreamEnd?
        let replayDeadline = Date(timeIntervalSinceNow: 20)
        while end == nil, Date() < replayDeadline {
            switch replay.next(timeoutMilliseconds: 20) {
            case .event(let event): replayed.append(event)
            case .idle: continue
            case .ended(let ended): end = ended
            }
        }
        #expect(end == .producerStopped(TraceEndReason.recordingStopped.rawValue))
        #expect(replay.malformedLines == 0)
        let lastSeq = events.compactMap(\.seq).max() ?? 0
        guard case .end(let line) = replayed.last else {
            Issue.record("no end line")
            return
        }
        #expect(line.seq == lastSeq + 1)
        #expect(replayed.dropLast().count == events.count)
    }
}
