// libFuzzer entry point for the whole read path: bytes → TraceDecoder → InspectorState (the fold,
// its rules and its clock) → every view rendered at two sizes → every view's text and CSV export,
// and the reports and exports notifytop writes from a recording: diff's text and JSON reports,
// explain's and the cascade's, every view's batch JSON line and the Perfetto timeline.
// Built against the NotifyWire, NotifyModel and NotifyTUI modules and NotifySession's report and
// export files by Fuzz/run-decoder-fuzz.sh.
// Besides "never crash, trap or hang" (an overflow, an index out of range or a quadratic rule
// shows as a crash or a libFuzzer timeout), it checks that every rendered line is exactly the
// canvas's width in cells, so no input can shift a column.
import NotifyModel
import NotifySession
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
    var folding = RecordingFold.Folding()
    var timeline = PerfettoTraceWriter()
    while true {
        do throws(TraceDecodingError) {
            guard let event = try decoder.next() else { break }
            state.apply(event)
            tail.append(event)
            folding.add(event)
            timeline.add(event)
            _ = timeline.take()
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
    for view in ViewID.allCases { _ = BatchJSON.line(frame, view: ViewState(view: view), iteration: 1) }
    timeline.finish()
    _ = timeline.take()
    reports(folding)
    return 0
}

/// Diff's, explain's and the cascade's reports of the fold, text and JSON: no control or bidi
/// character may reach the terminal through a text report.
private func reports(_ folding: RecordingFold.Folding) {
    guard let fold = try? RecordingFold(path: "fuzz.ndjson", folding: folding, skippedLines: nil) else { return }
    let diff = RecordingDiff(fold, fold)
    var texts = [diff.text]
    _ = diff.json
    if let name = fold.model.names.first(where: { !$0.isWildcard })?.name {
        let explanation = fold.model.explain(name: name)
        let report = ExplanationReport(explanation)
        texts.append(report.text)
        _ = report.json
        if let post = explanation.posts.last, let cascade = fold.model.cascade(post: post.post.postID) {
            let report = CascadeReport(cascade)
            texts.append(report.text)
            _ = report.json
        }
    }
    for text in texts where text.unicodeScalars.contains(where: isHidden) {
        fatalError("a text report holds a control or bidi character: \(text.debugDescription)")
    }
}

/// Scalars a text report must show as `?`: controls but the line break, bidi embeddings,
/// overrides, isolates and marks.
private func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return (value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(value) || (0x200E...0x200F).contains(value)
        || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
}
