import NotifyModel
import NotifyTestSupport
import NotifyWire
import Testing

extension TraceScript {
    /// Folds every line, ticking with each event's time as a viewer does.
    func fold(_ configuration: InspectorConfiguration = InspectorConfiguration()) -> InspectorState {
        var state = InspectorState(configuration: configuration)
        for event in events {
            state.apply(event)
            if let t = event.timestamp { state.tick(now: t) }
        }
        return state
    }
}

/// A named scenario for `arguments:` tables.
struct Scenario: Sendable, CustomTestStringConvertible {
    let name: String
    let build: @Sendable (inout TraceScript) -> Void

    init(_ name: String, _ build: @escaping @Sendable (inout TraceScript) -> Void) {
        self.name = name
        self.build = build
    }

    var testDescription: String { name }

    var script: TraceScript {
        var script = TraceScript()
        build(&script)
        return script
    }
}

extension InspectorState {
    /// Open findings of `rule`.
    func open(_ rule: LeakRule) -> [LeakFinding] { findings.filter { $0.rule == rule && $0.isOpen } }
    /// Every finding of `rule`, open or resolved.
    func all(_ rule: LeakRule) -> [LeakFinding] { findings.filter { $0.rule == rule } }
}

extension InspectorConfiguration {
    /// Defaults with a 1 ms checkpoint interval, for scripts whose clock moves in milliseconds.
    static var fastCheckpoints: InspectorConfiguration {
        var configuration = InspectorConfiguration()
        configuration.rules.checkpointInterval = TraceScript.ms
        return configuration
    }
}
