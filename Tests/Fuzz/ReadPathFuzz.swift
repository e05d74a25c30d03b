// libFuzzer entry point for the whole read path: bytes → TraceDecoder → InspectorState (the fold,
// its rules and its clock) → every view rendered at two sizes → every view's text and CSV export.
// Built against the NotifyWire, NotifyModel and NotifyTUI modules by Fuzz/run-decoder-fuzz.sh.
// Besides "never crash, trap or hang" (an overflow, an index out of range or a quadratic rule
// shows as a crash or a libFuzzer timeout), it checks that every rendered line is exactly the
// canvas's width in cells, so no input can shift a column.
import NotifyModel
import NotifyTUI
import NotifyWire

@_cdecl("LLVMFuzzerTestOneInput")
public func readPathFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var decoder = TraceDecoder(maximumLineLength: 4096)
    decoder.feed(UnsafeBufferPointer(start: data, count: size))
    decoder.finish()
    var state = InspectorState()
    var tail = EventTail(capacity: 64)
    var latest: UInt64 = 0
    while true {
        do throws(TraceDecodingError) {
            guard let event = try decoder.next() else { break }
            state.apply(event)
            tail.append(event)
            if let time = event.timestamp, time > latest {
                latest = time
                state.tick(now: time)
            }
        } catch {
            continue
        }
    }
    state.checkpoint()
    let frame = DashboardData(model: state, tail: tail, status: SessionStatus(mode: .ended("fuzz")))
    for size in [Size(width: 120, height: 40), Size(width: 40, height: 10)] {
        for view in ViewID.allCases {
            for glyphs in [Glyphs.unicode, .ascii] {
                let (canvas, _) = Dashboard.render(frame, view: ViewState(view: view), size: size, glyphs: glyphs)
                for y in 0..<canvas.size.height where DisplayWidth.of(canvas.line(y)) != canvas.size.width {
                    fatalError("\(view) line \(y) is \(DisplayWidth.of(canvas.line(y))) cells wide, not \(size.width)")
                }
                let content = Dashboard.content(frame, view: ViewState(view: view), glyphs: glyphs)
                let text = content.text
                if text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" }) {
                    fatalError("the \(view) text export holds a control character")
                }
                _ = content.csv
            }
        }
    }
    return 0
}
