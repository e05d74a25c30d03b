/// The shapes of workload `notify-demo --scenario` runs: a rate profile, a default bug set and a
/// mix of actions.
package enum DemoScenario: String, CaseIterable, Sendable, Codable {
    /// A busy app at a constant rate with every bug planted: what `notifytop --demo` shows.
    case steady
    /// Quiet stretches broken by spikes (4 s at a quarter of the rate, 1 s at four times it).
    case burst
    /// Screens open and close fast and the lifecycle bugs are planted, so leaks grow visibly.
    case leaky
    /// As fast as the machine allows, no bugs: the throughput benchmark.
    case stress
    /// A few posts a second, no bugs: the clean baseline with nothing to warn about.
    case quiet

    /// What `--list-scenarios` prints.
    package var summary: String {
        switch self {
        case .steady: "constant rate (default 200 posts/s), every bug planted; what notifytop --demo shows"
        case .burst: "4 s at 1/4 of the rate then 1 s at 4x (average 200 posts/s), every bug planted"
        case .leaky: "fast screen churn (default 100 posts/s) with the lifecycle bugs, so leaks grow visibly"
        case .stress: "posts as fast as the machine allows, no bugs; prints posts/s at exit"
        case .quiet: "5 posts/s, no bugs: a clean app that should raise no warning"
        }
    }

    /// Posts per second when `--rate` is not given; nil means unlimited.
    package var defaultRate: Double? {
        switch self {
        case .steady, .burst: 200
        case .leaky: 100
        case .stress: nil
        case .quiet: 5
        }
    }

    /// The bugs planted when neither `--bugs` nor `--no-bugs` is given.
    package var defaultBugs: [DemoBug] {
        switch self {
        case .steady, .burst: DemoBug.allCases
        case .leaky:
            [
                .reappearLeak, .doubleRegister, .earlyRemove, .droppedToken, .selfCapture, .deallocWithoutRemove,
                .deadSender,
            ]
        case .stress, .quiet: []
        }
    }

    /// Weight multiplier for navigation steps (open, close, switch tab): leaky churns screens.
    var navigationWeight: Int {
        self == .leaky ? 4 : 1
    }

    /// The rate multiplier at `elapsed` seconds: the slope of ``allowance(after:)``.
    package func rateMultiplier(at elapsed: Double) -> Double {
        guard self == .burst else { return 1 }
        return elapsed.truncatingRemainder(dividingBy: 5) < 4 ? 0.25 : 4
    }

    /// Posts allowed after `elapsed` seconds at an average of one post per second; multiply by the
    /// rate. The integral of the scenario's rate profile, so pacing needs no per-step state.
    package func allowance(after elapsed: Double) -> Double {
        guard self == .burst else { return elapsed }
        let period = 5.0
        let cycles = (elapsed / period).rounded(.down)
        let within = elapsed - cycles * period
        let inCycle = within < 4 ? 0.25 * within : 1 + 4 * (within - 4)
        return cycles * period + inCycle
    }
}
