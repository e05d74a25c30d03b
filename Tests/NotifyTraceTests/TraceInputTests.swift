import Foundation
import NotifySystem
import NotifyTestSupport
import NotifyWire
import NotifyTraceViewer
import Testing

/// What a reader accepts as a trace, and what it says about input that is not one or is damaged.
@Suite("Trace input")
struct TraceInputTests {
    static func temporaryPath(_ name: String) -> String {
        NotifyTestSupport.temporaryPath("input", suffix: "-\(name)")
    }

    static func write(_ bytes: [UInt8], _ name: String) -> String {
        let path = temporaryPath(name)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    static func lines(_ events: [TraceEvent]) -> [String] {
        events.map { TraceEncoder.line(for: $0).trimmingCharacters(in: .newlines) }
    }

    static let header = TraceEvent.header(
        TraceHeader(
            pid: 42, process: "demo", center: "default", clockMono: 1_000, clockWall: 2_000, producer: "test"))

    static func post(_ seq: UInt64) -> TraceEvent {
        .posted(
            TracePost(
                seq: seq, timestamp: 1_000 + seq, thread: 1, postID: seq, name: "tick", object: nil,
                hasUserInfo: false, matched: 0, depth: 1, parentPostID: 0, callsite: 0))
    }

    static func readAll(_ reader: TraceReader) -> (events: [TraceEvent], end: TraceStreamEnd) {
        var events: [TraceEvent] = []
        while true {
            switch reader.next() {
            case .event(let event): events.append(event)
            case .idle: continue
            case .ended(let end): return (events, end)
            }
        }
    }

    /// The message `TraceReader.open` refuses `path` with; nil when it opens.
    static func refusal(_ path: String) -> String? {
        do {
            _ = try TraceReader.open(file: path)
            return nil
        } catch {
            return error.description
        }
    }

    @Test(
        "input that is not a trace is refused at open, naming the file and what is wrong",
        arguments: [
            ("garbage", Array("not a log\n\u{0}\u{1}garbage\n".utf8), "line 1"),
            ("empty", [], "empty"),
            ("text", Array("hello\nworld\n".utf8), "line 1"),
            (
                "v2",
                Array(
                    #"{"k":"header","format":"notifytop-trace","version":"2.0","pid":1,"process":"x","center":"c","clockMono":1,"clockWall":1,"producer":"p"}"#
                        .utf8) + [10], "2.0"
            ),
            ("other-jsonl", Array(#"{"k":"post","seq":1}"#.utf8) + [10], "line 1"),
            ("event-first", Array((lines([post(1)])[0] + "\n").utf8), "not a header"),
        ])
    func notATrace(name: String, bytes: [UInt8], problem: String) throws {
        let path = Self.write(bytes, name)
        defer { unlink(path) }
        let message = try #require(Self.refusal(path), "\(name) was accepted")
        #expect(message.hasPrefix(path + ":"), "\(message)")
        #expect(message.contains(problem), "\(message)")
        #expect(!message.contains("\n"))
    }

    @Test("a directory, /dev/null, /dev/zero and a FIFO are refused before anything is read")
    func notRegularFiles() throws {
        let fifo = Self.temporaryPath("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        // A blocking open of a FIFO with no writer would never return: this must answer at once.
        for (path, kind) in [("/tmp", "directory"), ("/dev/null", "device"), ("/dev/zero", "device"), (fifo, "FIFO")] {
            let message = try #require(Self.refusal(path), "\(path) was accepted")
            #expect(message.hasPrefix(path + ":") && message.contains(kind), "\(message)")
        }
    }

    @Test("a trace with 3 bad lines yields the good ones and says how many were skipped and where")
    func skippedLines() throws {
        var text = Self.lines([Self.header] + (1...6).map(Self.post))
        text.insert("not json", at: 3)
        text.insert(#"{"k":"post","seq":"x"}"#, at: 5)
        text.append("{oops")
        let path = Self.write(Array((text.joined(separator: "\n") + "\n").utf8), "bad-lines")
        defer { unlink(path) }
        let reader = try TraceReader.open(file: path)
        #expect(reader.skippedLines == nil)
        let (events, _) = Self.readAll(reader)
        #expect(events.filter { $0.postName == "tick" }.count == 6)
        #expect(reader.malformedLines == 3)
        #expect(reader.skippedLines == "3 lines skipped (first at line 4)")
    }

    @Test("a stream without an end line ends as cut off, and a hole in seq arrives as a gap of its size")
    func holeWithoutEndLine() throws {
        let events = [Self.header] + [1, 2, 3, 9, 10].map(Self.post)
        let path = Self.write(Array(Self.lines(events).joined(separator: "\n").utf8) + [10], "hole")
        defer { unlink(path) }
        let (read, end) = Self.readAll(try TraceReader.open(file: path))
        #expect(end == .endOfFile)
        #expect(end.description.contains("cut off"))
        let gap = try #require(read.last?.gap)
        #expect(gap.count == 5)
        #expect(gap.reason == .unaccounted)
        #expect(read.compactMap(\.gap).count == 1)
    }

    @Test("holes a gap line accounts for, definitions without seq and a mid-session prelude count nothing lost")
    func accountedHoles() throws {
        let reported = TraceEvent.gap(TraceGap(seq: 9, timestamp: 1_009, count: 5, reason: .bufferFull))
        let thread = TraceEvent.thread(
            TraceThread(seq: 70, timestamp: 1_000, id: 1, systemID: 1, name: "main", isMain: true))
        let prelude = TraceEvent.registered(
            TraceRegistration(
                seq: 50, timestamp: 1_000, thread: 1, id: 1, name: "tick", kind: .block, observer: nil, object: nil,
                target: .posting, targetLabel: nil, callsite: 0, preexisting: true, capturesObserverStrongly: false))
        let events = [
            Self.header, thread, prelude, Self.post(1), Self.post(2), Self.post(3),
            .type(TraceType(id: 1, name: "T")), reported, Self.post(10),
            .end(TraceEnd(seq: 11, timestamp: 2_000, reason: .processExit)),
        ]
        let path = Self.write(Array(Self.lines(events).joined(separator: "\n").utf8) + [10], "accounted")
        defer { unlink(path) }
        let (read, end) = Self.readAll(try TraceReader.open(file: path))
        #expect(end == .processExited)
        #expect(read.compactMap(\.gap) == [reported.gap!])
    }

    @Test("input with no line end before its header is given up after a bounded number of bytes")
    func noLineEnd() throws {
        let bytes = [UInt8](repeating: 0x41, count: TraceReader.maximumBytesWithoutNewline + 300_000)
        let path = Self.write(bytes, "no-newline")
        defer { unlink(path) }
        #expect(Self.refusal(path).map { $0.hasPrefix(path + ":") && $0.contains("not a notifytop trace") } == true)
    }

    @Test("a recording resynchronises after a stretch with no line end, folds the rest and counts the bytes")
    func resynchronisesAfterAnOverlongStretch() throws {
        let stretch = TraceReader.maximumBytesWithoutNewline + 300_000
        let before = Self.lines([Self.header] + (1...2).map(Self.post)).joined(separator: "\n") + "\n"
        let after =
            Self.lines((3...5).map(Self.post) + [.end(TraceEnd(seq: 6, timestamp: 2_000, reason: .processExit))])
            .joined(separator: "\n") + "\n"
        let bytes = Array(before.utf8) + [UInt8](repeating: 0, count: stretch) + [10] + Array(after.utf8)
        let path = Self.write(bytes, "nul-run")
        defer { unlink(path) }
        let reader = try TraceReader.open(file: path)
        let (events, end) = Self.readAll(reader)
        #expect(end == .processExited)
        #expect(events.filter { $0.postName == "tick" }.count == 5, "every post around the stretch")
        #expect(events.compactMap(\.gap).isEmpty, "no event was lost")
        #expect(reader.malformedLines == 1)
        #expect(reader.skippedBytes == stretch)
        #expect(reader.skippedLines == "1 line skipped (first at line 4; \(stretch) bytes of over-long lines)")
    }

    @Test("a recording that ends inside a stretch with no line end reads to its end as cut off")
    func endsInsideAnOverlongStretch() throws {
        let stretch = TraceReader.maximumBytesWithoutNewline + 300_000
        let text = Self.lines([Self.header] + (1...2).map(Self.post)).joined(separator: "\n") + "\n"
        let path = Self.write(Array(text.utf8) + [UInt8](repeating: 0x41, count: stretch), "cut-in-run")
        defer { unlink(path) }
        let reader = try TraceReader.open(file: path)
        let (events, end) = Self.readAll(reader)
        #expect(end == .endOfFile)
        #expect(events.filter { $0.postName == "tick" }.count == 2)
        #expect(reader.skippedBytes == stretch)
    }

    @Test("a line that repeats an event's number is skipped and reported, not counted twice")
    func repeatedLinesAreSkipped() throws {
        let events = [Self.header] + [1, 2, 3, 2, 3, 4].map(Self.post)
        let path = Self.write(Array(Self.lines(events).joined(separator: "\n").utf8) + [10], "repeated")
        defer { unlink(path) }
        let reader = try TraceReader.open(file: path)
        var messages: [String] = []
        reader.onMalformedLine = { messages.append($0) }
        let (read, _) = Self.readAll(reader)
        #expect(read.filter { $0.postName == "tick" }.count == 4)
        #expect(reader.malformedLines == 2)
        #expect(reader.skippedLines == "2 lines skipped (first at line 5)")
        #expect(messages.first == "\(path): line 5: seq 2 after 3: a repeated or out-of-order line", "\(messages)")
        #expect(read.compactMap(\.gap).isEmpty, "nothing is missing either")
    }

    @Test("a second header ends the stream it follows with a message, the same for every reader of the file")
    func secondHeaderEndsTheStream() throws {
        let events = [Self.header] + [1, 2].map(Self.post) + [Self.header] + [1, 2, 3].map(Self.post)
        let path = Self.write(Array(Self.lines(events).joined(separator: "\n").utf8) + [10], "two-streams")
        defer { unlink(path) }
        let (read, end) = Self.readAll(try TraceReader.open(file: path))
        #expect(read.filter { $0.postName == "tick" }.count == 2)
        guard case .failed(let message) = end else {
            Issue.record("expected the stream to end at the second header, got \(end)")
            return
        }
        #expect(
            message
                == "\(path): line 4: a second header, so another stream begins here; "
                + "read up to it (split the file to read the rest)")
    }
}
