import NotifyDemo
import NotifyWire
import NotifyModel

/// Folding a recorded demo run into the inspector model, as notifytop does, plus the test's
/// explicit checkpoints.
extension InspectorState {
    /// The model's defaults, except R7's info level (16 ms, one 60 Hz frame), which is off.
    ///
    /// Every handler of the clean demo runs in microseconds, but on a loaded two-core machine
    /// (parallel tests, concurrent builds, ThreadSanitizer) a handler preempted for a frame's worth
    /// of time is the scheduler, not the app; at 16 ms a clean run would flake. The warning level
    /// (100 ms), which the `slow-main-handler` bug is built to cross, stays at its default, as does
    /// every other rule.
    static var demoTestConfiguration: InspectorConfiguration {
        var configuration = InspectorConfiguration()
        configuration.rules.slowHandler.info = nil
        configuration.rules.slowPost.info = nil
        return configuration
    }

    /// Folds `run` as a viewer does (apply each event, then tick with its timestamp), with an
    /// explicit checkpoint at each of the run's marks (the model's "test step": R6 samples its
    /// counts and R10 counts a wait there), then one at the end, as at report time.
    ///
    /// The demo runs far faster than the model's automatic checkpoint interval (5 s of stream
    /// time), so the marks are what the time- and checkpoint-based rules see.
    static func fold(
        _ run: RecordedDemoTrace, configuration: InspectorConfiguration = demoTestConfiguration
    ) -> InspectorState {
        fold(run.events, marks: run.marks, configuration: configuration)
    }

    /// Folds `events`; a checkpoint is taken at each mark, just before the first event stamped
    /// after it.
    static func fold(
        _ events: [TraceEvent], marks: [UInt64], configuration: InspectorConfiguration = demoTestConfiguration
    ) -> InspectorState {
        var state = InspectorState(configuration: configuration)
        var pending = marks.sorted()[...]
        for event in events {
            let time = event.timestamp
            if let time {
                while let mark = pending.first, time > mark {
                    state.checkpoint(now: mark)
                    pending.removeFirst()
                }
            }
            state.apply(event)
            if let time { state.tick(now: time) }
        }
        for mark in pending { state.checkpoint(now: mark) }
        state.checkpoint()
        return state
    }

    /// One line per finding, for failure messages.
    var findingLines: [String] {
        findings.map { finding in
            "\(finding.rule.code) \(finding.severity) \(finding.isOpen ? "open" : "resolved") "
                + "[\(finding.evidence.name ?? "?")] \(finding.summary)"
        }
    }
}

extension LeakRule {
    /// The model's rule a demo bug names, from its `DemoBug.rule` text ("R1 ORPHANED_REGISTRATION").
    init?(demoRule text: String) {
        guard let rule = LeakRule.allCases.first(where: { $0.description == text }) else { return nil }
        self = rule
    }
}

extension DemoBug {
    /// The notification name the bug's finding is about: the name the demo says it lives on
    /// (``DemoBug/name``), which the model's evidence names.
    var findingName: DemoName { name }
}
