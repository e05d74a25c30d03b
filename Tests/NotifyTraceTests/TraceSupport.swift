import Foundation
import NotifyTestSupport
import NotifyWire
import NotifyKit
import NotifySystem
import NotifyTraceViewer

extension TemporaryDirectory {
    /// The temporary path as the inspector's private socket directory, which the inspector creates.
    var socketDirectory: SocketDirectory { SocketDirectory(path: path) }
}

extension TraceReader {
    /// Reads events until `predicate` holds for one of them or `seconds` pass; returns all read.
    /// Reads until the `count`th event that `matches` arrives (or the read gives up).
    func read(untilThe count: Int, _ matches: (TraceEvent) -> Bool) -> [TraceEvent] {
        var seen = 0
        return read(until: { event in
            if matches(event) { seen += 1 }
            return seen == count
        })
    }

    func read(until predicate: (TraceEvent) -> Bool, seconds: Double = 5) -> [TraceEvent] {
        var events: [TraceEvent] = []
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            switch next(timeoutMilliseconds: 20) {
            case .event(let event):
                events.append(event)
                if predicate(event) { return events }
            case .idle: continue
            case .ended: return events
            }
        }
        return events
    }

    /// Reads until the stream ends or `seconds` pass.
    func readToEnd(seconds: Double = 5) -> (events: [TraceEvent], end: TraceStreamEnd?) {
        var events: [TraceEvent] = []
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            switch next(timeoutMilliseconds: 20) {
            case .event(let event): events.append(event)
            case .idle: continue
            case .ended(let end): return (events, end)
            }
        }
        return (events, nil)
    }
}

extension TraceEvent {
    var postName: String? {
        if case .posted(let post) = self { return post.name }
        return nil
    }

    var registration: TraceRegistration? {
        if case .registered(let registration) = self { return registration }
        return nil
    }

    var gap: TraceGap? {
        if case .gap(let gap) = self { return gap }
        return nil
    }
}
