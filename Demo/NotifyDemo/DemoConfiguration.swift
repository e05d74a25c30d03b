import Foundation

/// Everything a run of the demo depends on; the command line builds one, tests build their own.
package struct DemoConfiguration: Sendable, Equatable {
    /// The workload's shape.
    package var scenario: DemoScenario
    /// Target posts per second over all threads; nil runs as fast as possible.
    package var rate: Double?
    /// Seconds to run; nil runs until SIGINT or SIGTERM.
    package var duration: Double?
    /// Seeds every choice; the same seed gives the same registrations and posts per thread.
    package var seed: UInt64
    /// Worker threads besides the main thread.
    package var threads: Int
    /// The planted bugs, in ``DemoBug/allCases`` order.
    package var bugs: [DemoBug]
    /// How long the `slow-main-handler` handler blocks the main thread.
    package var slowHandlerMilliseconds: Int
    /// Plants the silent bugs (``SilentBug``) once at launch: observers that never run and that
    /// only an explanation finds.
    package var silentBugs: Bool

    /// - Parameters:
    ///   - rate: nil takes the scenario's default rate.
    ///   - bugs: nil takes the scenario's default bugs.
    package init(
        scenario: DemoScenario = .steady, rate: Double? = nil, duration: Double? = nil, seed: UInt64 = 1,
        threads: Int = 2, bugs: [DemoBug]? = nil, slowHandlerMilliseconds: Int = 120,
        silentBugs: Bool = false
    ) {
        self.scenario = scenario
        self.rate = rate ?? scenario.defaultRate
        self.duration = duration
        self.seed = seed
        self.threads = max(0, threads)
        self.bugs = (bugs ?? scenario.defaultBugs).sorted()
        self.slowHandlerMilliseconds = slowHandlerMilliseconds
        self.silentBugs = silentBugs
    }

    /// Parses `--bugs a,b,c`; `all` and `none` are accepted too.
    ///
    /// - Throws: ``DemoConfigurationError/unknownBug(_:)`` naming the first unknown bug.
    package static func parseBugs(_ list: String) throws(DemoConfigurationError) -> [DemoBug] {
        var bugs: [DemoBug] = []
        for part in list.split(separator: ",") {
            let name = part.trimmingCharacters(in: .whitespaces)
            if name == "all" { return DemoBug.allCases }
            if name == "none" || name.isEmpty { continue }
            guard let bug = DemoBug(rawValue: name) else { throw .unknownBug(name) }
            if !bugs.contains(bug) { bugs.append(bug) }
        }
        return bugs.sorted()
    }
}

/// Why a configuration was refused.
package enum DemoConfigurationError: Error, Equatable, CustomStringConvertible {
    /// `--bugs` named a bug that does not exist.
    case unknownBug(String)

    package var description: String {
        switch self {
        case .unknownBug(let name):
            "unknown bug \"\(name)\"; known: \(DemoBug.allCases.map(\.rawValue).joined(separator: ", "))"
        }
    }
}
