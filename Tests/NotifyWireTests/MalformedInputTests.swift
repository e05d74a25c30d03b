import NotifySystem
import NotifyTestSupport
import Testing
import NotifyWire

/// Damaged input gives typed errors that name the line and what was wrong, never a crash, and
/// decoding carries on at the next line.
@Suite struct MalformedInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let line: String
        let reason: TraceDecodingError.Reason
        var testDescription: String { line }
    }

    static let cases: [Case] = [
        Case(line: "hello", reason: .malformed(column: 1, problem: "expected '{' to start the line's object")),
        Case(line: "{", reason: .malformed(column: 2, problem: "expected a quoted key, found the end of the line")),
        Case(
            line: #"{"k":"end"#,
            reason: .malformed(column: 10, problem: "unterminated string, found the end of the line")),
        Case(line: #"{"k" "end"}"#, reason: .malformed(column: 6, problem: "expected ':' after a key")),
        Case(line: #"{"k":"end",}"#, reason: .malformed(column: 12, problem: "expected a quoted key")),
        Case(line: #"{"k":"end"} {}"#, reason: .malformed(column: 13, problem: "unexpected text after the object")),
        Case(line: #"{"k":tru}"#, reason: .malformed(column: 6, problem: "expected true")),
        Case(line: #"{"k":01}"#, reason: .malformed(column: 7, problem: "expected ',' or '}' after a value")),
        Case(line: #"{"k":"a\qb"}"#, reason: .malformed(column: 9, problem: "invalid escape in a string")),
        Case(line: #"{"k":"\u12G4"}"#, reason: .malformed(column: 11, problem: "expected four hex digits after \\u")),
        Case(
            line: "{\"k\":\"a\u{1}b\"}",
            reason: .malformed(column: 8, problem: "control character in a string; it must be escaped")),
        Case(
            line: #"{"x":[1,2"#,
            reason: .malformed(column: 10, problem: "expected ',' or ']', found the end of the line")),
        Case(line: "[1,2]", reason: .malformed(column: 1, problem: "expected '{' to start the line's object")),
        Case(line: #"{"seq":1}"#, reason: .missingKind),
        Case(line: #"{"k":7}"#, reason: .missingKind),
        Case(line: #"{"k":"end","seq":1,"t":2}"#, reason: .missingField(kind: "end", field: "reason")),
        Case(
            line: #"{"k":"end","seq":"1","t":2,"reason":"x"}"#,
            reason: .wrongType(kind: "end", field: "seq", expected: "an unsigned integer")),
        Case(
            line: #"{"k":"end","seq":1.5,"t":2,"reason":"x"}"#,
            reason: .wrongType(kind: "end", field: "seq", expected: "an unsigned integer")),
        Case(
            line: #"{"k":"end","seq":-1,"t":2,"reason":"x"}"#,
            reason: .invalidValue(kind: "end", field: "seq", value: "-1")),
        Case(
            line: #"{"k":"end","seq":18446744073709551616,"t":2,"reason":"x"}"#,
            reason: .invalidValue(kind: "end", field: "seq", value: "18446744073709551616")),
        Case(
            line: #"{"k":"end","seq":1,"t":2,"reason":null}"#,
            reason: .wrongType(kind: "end", field: "reason", expected: "a string")),
        Case(
            line: #"{"k":"remove","seq":1,"t":2,"thread":1,"registration":4,"reason":"evaporated"}"#,
            reason: .invalidValue(kind: "remove", field: "reason", value: "\"evaporated\"")),
        Case(
            line: #"{"k":"thread","seq":1,"t":2,"id":1,"systemID":4294967296,"name":"x","isMain":false}"#,
            reason: .invalidValue(kind: "thread", field: "systemID", value: "4294967296")),
        Case(
            line: #"{"k":"thread","seq":1,"t":2,"id":1,"systemID":1,"name":"x","isMain":1}"#,
            reason: .wrongType(kind: "thread", field: "isMain", expected: "true or false")),
        Case(
            line: #"{"k":"obj","id":1,"type":2,"addr":"7f00"}"#,
            reason: .invalidValue(kind: "obj", field: "addr", value: "\"7f00\"")),
        Case(
            line: #"{"k":"obj","id":1,"type":2,"addr":"0x"}"#,
            reason: .invalidValue(kind: "obj", field: "addr", value: "\"0x\"")),
        Case(
            line: #"{"k":"type","id":1,"name":"\ud800"}"#,
            reason: .invalidValue(kind: "type", field: "name", value: #""\ud800" (lone surrogate)"#)),
    ]

    @Test("a malformed line gives a typed error", arguments: cases)
    func malformedLine(testCase: Case) {
        #expect(decodingError(testCase.line) == TraceDecodingError(line: 1, reason: testCase.reason))
    }

    @Test("the error's message is one line naming the line number and the column or field")
    func messages() {
        let messages = [
            decodingError(#"{"k" "end"}"#)?.description,
            decodingError(#"{"k":"end","seq":1,"t":2}"#)?.description,
            decodingError(#"{"k":"end","seq":"1","t":2,"reason":"x"}"#)?.description,
            decodingError(#"{"k":"remove","seq":1,"t":2,"thread":1,"registration":4,"reason":"evaporated"}"#)?
                .description,
        ]
        #expect(
            messages == [
                "line 1: column 6: expected ':' after a key",
                "line 1: end line: missing field \"reason\"",
                "line 1: end line: field \"seq\" should be an unsigned integer",
                "line 1: remove line: field \"reason\" has invalid value \"evaporated\"",
            ])
        #expect(messages.allSatisfy { !($0 ?? "\n").contains("\n") })
    }

    @Test("decoding resumes at the line after a bad one, with line numbers counting every line")
    func resumesAfterError() {
        let text = "nonsense\n" + TraceSamples.line(.type) + "\n{\"k\":\n" + TraceSamples.line(.callsite) + "\n"
        let outcomes = decodeAll(text)
        #expect(outcomes.count == 4)
        #expect(outcomes[1] == .event(TraceSamples.event(.type)))
        #expect(outcomes[3] == .event(TraceSamples.event(.callsite)))
        if case .error(let error) = outcomes[2] { #expect(error.line == 3) } else { Issue.record("expected an error") }
    }

    @Test("unknown fields, nested values and any field order are accepted")
    func forwardCompatibleFields() {
        let line =
            #"{"extra":{"a":[1,2.5e3,{"b":null}],"c":"\u00e9"},"reason":"process-exit","t":2,"seq":1,"k":"end","z":-0.5}"#
        #expect(decodeOne(line) == .event(.end(TraceEnd(seq: 1, timestamp: 2, reason: .processExit))))
    }

    @Test("absent optional fields read as nil, and whitespace and CRLF line ends are tolerated")
    func lenientOptionalsAndWhitespace() {
        let text =
            "  { \"k\" : \"queue\" , \"seq\":1,\"t\":2,\"thread\":3,\"queueID\":4,\"action\":\"flushed\","
            + "\"count\":5,\"pending\":0 }\r\n"
        #expect(
            decodeAll(text) == [
                .event(
                    .queue(
                        TraceQueueActivity(
                            seq: 1, timestamp: 2, thread: 3, queueID: 4, action: .flushed, name: nil, style: nil,
                            count: 5, pending: 0)))
            ])
    }

    @Test("a recording cut off mid-line decodes every whole line, then reports the truncation")
    func truncatedInput() {
        let whole = TraceSamples.streamBytes
        let cut = Array(whole.dropLast(20))
        let outcomes = decodeAll(cut)
        let lineCount = TraceLineKind.allCases.count
        #expect(Array(outcomes.dropLast()) == TraceSamples.stream.dropLast().map(DecodeOutcome.event))
        let lastLineLength = TraceSamples.line(.end).utf8.count
        #expect(
            outcomes.last
                == .error(
                    TraceDecodingError(
                        line: lineCount, reason: .truncated(bytes: lastLineLength - 19))))
    }

    @Test("a whole last line without a newline still decodes at finish")
    func finalLineWithoutNewline() {
        let bytes = Array(TraceSamples.streamBytes.dropLast())
        #expect(decodeAll(bytes) == TraceSamples.stream.map(DecodeOutcome.event))
    }

    @Test(
        "a 10 MB line is reported once, never buffered whole, and the next line decodes",
        arguments: [Chunking.allAtOnce, .random(seed: 9, maximum: 65_536)])
    func tenMegabyteLine(chunking: Chunking) throws {
        var bytes = TraceSamples.event(.type).encoded
        bytes += Array(#"{"k":"type","id":1,"name":""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: 10_000_000)
        bytes += Array("\"}\n".utf8)
        bytes += TraceSamples.event(.end).encoded
        var decoder = TraceDecoder()
        var outcomes: [DecodeOutcome] = []
        var peak = 0
        for chunk in chunking.split(bytes) {
            decoder.feed(chunk)
            peak = max(peak, decoder.bufferedByteCount)
            while true {
                do throws(TraceDecodingError) {
                    guard let event = try decoder.next() else { break }
                    outcomes.append(.event(event))
                } catch {
                    outcomes.append(.error(error))
                }
            }
        }
        #expect(
            outcomes == [
                .event(TraceSamples.event(.type)),
                .error(TraceDecodingError(line: 2, reason: .lineTooLong(limit: TraceDecoder.defaultMaximumLineLength))),
                .event(TraceSamples.event(.end)),
            ])
        #expect(peak <= TraceDecoder.defaultMaximumLineLength + 65_536)
    }

    @Test(
        "random garbage never crashes and every line yields at most one outcome",
        arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomGarbage(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let alphabet = Array(#"{}[]":,\ntruefalsnul0123456789-.eE+ubk"#.utf8) + [0x00, 0xFF, 0xC3, 0x0A]
        let bytes = (0..<20_000).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
        let newlines = bytes.count { $0 == 0x0A }
        let outcomes = decodeAll(bytes, chunking: .random(seed: seed, maximum: 100), maximumLineLength: 512)
        #expect(outcomes.count <= newlines + 1)
    }

    @Test("deep nesting in an unknown field is refused, not recursed into without bound")
    func deepNesting() {
        let line =
            #"{"k":"end","x":"# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
        guard case .malformed(_, let problem) = decodingError(line)?.reason else {
            Issue.record("expected a malformed error")
            return
        }
        #expect(problem.contains("nested"))
    }
}
