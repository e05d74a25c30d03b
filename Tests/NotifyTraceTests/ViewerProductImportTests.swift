import NotifyTraceViewer
import Testing

/// A viewer names what ``TraceReader/open(file:strict:)`` throws with `import NotifyTraceViewer`
/// alone: this file imports nothing else.
@Suite struct ViewerProductImportTests {
    @Test("the trace error is named through NotifyTraceViewer alone")
    func errorThroughTheProduct() {
        #expect(throws: TraceError.self) { _ = try TraceReader.open(file: "/nonexistent/notifytop-import.jsonl") }
    }
}
