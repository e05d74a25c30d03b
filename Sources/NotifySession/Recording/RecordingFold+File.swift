package import NotifyModel
import NotifyTraceViewer

extension RecordingFold {
    /// Reads `path` to its end, as `--replay` reads it, into a model of `configuration`.
    package init(path: String, configuration: InspectorConfiguration = InspectorConfiguration()) throws(Failure) {
        let reader: TraceReader
        do { reader = try TraceReader.open(file: path) } catch {
            throw Failure(description: "\(error)")
        }
        var folding = Folding(configuration: configuration)
        reading: while true {
            switch reader.next() {
            case .event(let event): folding.add(event)
            case .idle: continue
            case .ended(.failed(let message)): throw Failure(description: message)
            case .ended: break reading
            }
        }
        try self.init(path: path, folding: folding, skippedLines: reader.skippedLines)
    }
}
