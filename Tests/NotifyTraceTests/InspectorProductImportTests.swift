import NotifyTraceApp
import Testing

/// An app names what ``NotifyInspector/start(center:others:directory:ringCapacity:viewerBufferBytes:limits:logger:)``
/// takes and throws with `import NotifyTraceApp` alone: this file imports nothing else.
@Suite struct InspectorProductImportTests {
    @Test("the socket directory and the trace error are named through NotifyTraceApp alone")
    func directoryAndErrorThroughTheProduct() {
        let directory = SocketDirectory(path: "/nonexistent/notifytop-import")
        #expect(directory.socketPath(for: 42) == "/nonexistent/notifytop-import/42.sock")
        #expect(throws: TraceError.self) { _ = try NotifyInspector.start(others: .none, directory: directory) }
    }
}
