import Testing
import NotifyWire

/// Names are arbitrary text: every character must survive the trip, and the line must stay one
/// line of valid JSON.
@Suite struct EscapingTests {
    static let names: [String] = [
        "cartDidChange",
        "購物車已更改",  // CJK
        "🛒 changed 👩‍👩‍👧‍👦 🇯🇵",  // emoji, ZWJ sequence, flag
        "say \"hi\"",  // quotes
        #"C:\path\to\file \\ \u0041"#,  // backslashes, and text that looks like an escape
        "tab\there\nnewline\rcr",  // common control characters
        "\u{0}\u{1}\u{8}\u{C}\u{1F}\u{7F}",  // NUL, other C0 controls, DEL
        "line\u{2028}separator\u{2029}",  // JavaScript's line terminators, valid in JSON
        "é vs e\u{301}",  // precomposed and combining
        "",
        "/slashes/ and </script>",
    ]

    @Test("a name with any characters round trips", arguments: names)
    func roundTripsName(name: String) {
        let events: [TraceEvent] = [
            .type(TraceType(id: 1, name: name)),
            .posted(
                TracePost(
                    seq: 1, timestamp: 1, thread: 1, postID: 1, name: name, object: nil, hasUserInfo: false,
                    matched: 0, depth: 1, parentPostID: 0, callsite: 1)),
            .header(TraceHeader(pid: 1, process: name, center: name, clockMono: 0, clockWall: 0, producer: name)),
        ]
        var bytes: [UInt8] = []
        TraceEncoder.encode(events, into: &bytes)
        #expect(bytes.count { $0 == 0x0A } == events.count, "a name must never break the line")
        #expect(bytes.allSatisfy { $0 >= 0x20 || $0 == 0x0A }, "control characters must be escaped")
        #expect(decodeAll(bytes) == events.map(DecodeOutcome.event))
    }

    @Test("strings are escaped exactly as JSON's short forms and \\u00XX, with non-ASCII passed through")
    func escapeSpelling() {
        let line = TraceEncoder.line(for: .type(TraceType(id: 1, name: "\"\\/\u{8}\u{C}\n\r\t\u{1}\u{1F}é🛒")))
        #expect(line == #"{"k":"type","id":1,"name":"\"\\/\b\f\n\r\t\u0001\u001fé🛒"}"#)
    }

    @Test("a long name is escaped alike on every line, wherever its escapes and multi-byte characters fall")
    func longNameEscapedAlike() {
        let name = String((0..<400).map { $0 % 61 == 0 ? "\"" : $0 % 64 == 63 ? "é" : $0 % 37 == 0 ? "\u{1}" : "a" })
        let typeLine = TraceEncoder.line(for: .type(TraceType(id: 1, name: name)))
        let post = TracePost(
            seq: 1, timestamp: 1, thread: 1, postID: 1, name: name, object: nil, hasUserInfo: false, matched: 0,
            depth: 1, parentPostID: 0, callsite: 1)
        let postLine = TraceEncoder.line(for: .posted(post))
        let quoted = typeLine.dropFirst(#"{"k":"type","id":1,"name":"#.count).dropLast()
        #expect(quoted.count > name.count, "the name has characters to escape")
        #expect(postLine.contains(#""name":"# + quoted + ","), "a type line and a post line spell a name alike")
        #expect(decodeAll(Array((typeLine + "\n").utf8)) == [.event(.type(TraceType(id: 1, name: name)))])
    }

    struct EscapedInput: CustomTestStringConvertible, Sendable {
        let json: String
        let text: String
        var testDescription: String { json }
    }

    @Test(
        "escapes other encoders write decode to the right text",
        arguments: [
            EscapedInput(json: #"\u00e9"#, text: "é"),
            EscapedInput(json: #"\u00E9\u00c9"#, text: "éÉ"),
            EscapedInput(json: #"\u8cfc\u7269"#, text: "購物"),
            EscapedInput(json: #"\ud83d\uded2"#, text: "🛒"),
            EscapedInput(json: #"\uD83D\uDE00!"#, text: "😀!"),
            EscapedInput(json: #"\u0000"#, text: "\u{0}"),
            EscapedInput(json: #"\/\"\\"#, text: #"/"\"#),
            EscapedInput(json: #"a\u0041\n"#, text: "aA\n"),
        ])
    func decodesEscapes(input: EscapedInput) {
        let line = #"{"k":"type","id":1,"name":""# + input.json + #""}"#
        #expect(decodeOne(line) == .event(.type(TraceType(id: 1, name: input.text))))
    }

    @Test("surrogates must come in pairs", arguments: [#"\ud83d"#, #"\ude00"#, #"\ud83dx"#, #"\ud83d\u0041"#])
    func loneSurrogates(json: String) {
        let error = decodingError(#"{"k":"type","id":1,"name":""# + json + #""}"#)
        guard case .invalidValue(_, "name", let value) = error?.reason else {
            Issue.record("expected an invalid value, got \(String(describing: error))")
            return
        }
        #expect(value.hasSuffix("(lone surrogate)"))
    }

    @Test("escaped keys and kinds are matched by their meaning")
    func escapedKeys() {
        let line = #"{"\u006b":"\u0065nd","seq":1,"\u0074":2,"reason":"process-exit"}"#
        #expect(decodeOne(line) == .event(.end(TraceEnd(seq: 1, timestamp: 2, reason: .processExit))))
    }

    @Test("invalid UTF-8 in a string becomes U+FFFD instead of failing the line")
    func invalidUTF8() {
        var bytes = Array(#"{"k":"type","id":1,"name":"a"#.utf8)
        bytes += [0xFF, 0xC3]
        bytes += Array("b\"}\n".utf8)
        #expect(decodeAll(bytes) == [.event(.type(TraceType(id: 1, name: "a\u{FFFD}\u{FFFD}b")))])
    }
}
