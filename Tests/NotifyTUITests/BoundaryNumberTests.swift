import Foundation
import NotifyModel
import NotifyTUI
import NotifyTUITestSupport
import NotifyWire
import Testing

/// Numbers at the edge of their type, in every field a stream carries, are folded and shown
/// without a trap: arithmetic on them saturates, and every view and export still draws.
struct BoundaryNumberTests {
    /// The fixture's lines with `pattern`'s numbers replaced by `value`.
    static func lines(replacing pattern: String, with value: String) -> [String] {
        let regex = try! Regex(pattern)
        return Fixture.events().map { event in
            TraceEncoder.line(for: event).trimmingCharacters(in: .newlines).replacing(regex) { match in
                let text = String(match.output[0].substring ?? "")
                guard let colon = text.firstIndex(of: ":") else { return text }
                return text[...colon] + value
            }
        }
    }

    /// The fixture's lines with the first time at 2^64 − 1 and the rest as they were: a clock that
    /// jumps to its end and comes back.
    static var clockAtItsEndThenBack: [String] {
        var lines = Fixture.events().map { TraceEncoder.line(for: $0).trimmingCharacters(in: .newlines) }
        let regex = try! Regex(#""t":\d+"#)
        if let index = lines.firstIndex(where: { $0.contains("\"k\":\"post\"") }) {
            lines[index] = lines[index].replacing(regex, maxReplacements: 1) { _ in #""t":18446744073709551615"# }
        }
        return lines
    }

    static let cases: [(String, String, String)] = [
        ("every number at 2^64 − 1", #""[a-zA-Z]+":\d\d+"#, "18446744073709551615"),
        ("every number at 2^64 − 2", #""[a-zA-Z]+":\d\d+"#, "18446744073709551614"),
        ("times past 2^64 − 10^9", #""t":\d+"#, "18446744073000000000"),
        ("times at 2^64 − 1", #""t":\d+"#, "18446744073709551615"),
        ("durations past 2^64 − 5·10^4", #""duration":\d+"#, "18446744073709500000"),
        ("waits at 2^64 − 1", #""wait":\d+"#, "18446744073709551615"),
        ("thread ids at 2^64 − 1", #""(thread|id)":\d+"#, "18446744073709551615"),
        ("starts at 2^64 − 1", #""start":\d+"#, "18446744073709551615"),
        ("seq at 2^64 − 1", #""seq":\d+"#, "18446744073709551615"),
    ]

    @Test("a stream of boundary numbers folds, draws every view and exports", arguments: 0...cases.count)
    func boundaryNumbers(index: Int) throws {
        let label: String
        let lines: [String]
        if index < Self.cases.count {
            let (name, pattern, value) = Self.cases[index]
            (label, lines) = (name, Self.lines(replacing: pattern, with: value))
        } else {
            (label, lines) = ("a time at 2^64 − 1, then times before it", Self.clockAtItsEndThenBack)
        }
        var decoder = TraceDecoder()
        decoder.feed(Array((lines.joined(separator: "\n") + "\n").utf8))
        decoder.finish()
        var state = InspectorState()
        var tail = EventTail(capacity: 64)
        var decoded = 0
        while true {
            do {
                guard let event = try decoder.next() else { break }
                state.apply(event)
                tail.append(event)
                if let time = event.timestamp { state.tick(now: time) }
                decoded += 1
            } catch {
                continue
            }
        }
        state.checkpoint()
        #expect(decoded > 0, "\(label): nothing decoded")
        let data = DashboardData(model: state, tail: tail, status: SessionStatus(mode: .ended("boundary")))
        for view in ViewID.allCases {
            for size in [Size(width: 120, height: 40), Size(width: 40, height: 10)] {
                let canvas = Dashboard.render(data, view: ViewState(view: view), size: size, glyphs: .unicode).canvas
                #expect(canvas.lines.count == size.height, "\(label): \(view)")
            }
            _ = Dashboard.content(data, view: ViewState(view: view), glyphs: .unicode).text
        }
    }
}
