import NotifyDemo
import NotifyKit
import NotifyLeakCheck

/// The demo's planted bugs whose findings do not depend on the machine's speed (R7's slow handler
/// sleeps for a tenth of a second per delivery and adds nothing here).
let plantedBugs: [DemoBug] = DemoBug.allCases.filter { $0 != .slowMainHandler }

/// Runs `steps` steps of a fresh demo app on `center`, checkpointing every `checkpointEvery` steps
/// as a test marks "screen closed": the app whose leaks both notifytop and a leak check look at.
/// Returns the simulation, so its objects stay alive as long as the caller keeps it.
@discardableResult
func runDemo(on center: NotifyCenter, seed: UInt64, steps: Int = 300, checkpointEvery: Int = 50) -> DemoSimulation {
    let simulation = DemoSimulation(
        configuration: DemoConfiguration(scenario: .steady, seed: seed, bugs: plantedBugs), center: center)
    var done = 0
    while done < steps {
        let count = min(checkpointEvery, steps - done)
        simulation.run(steps: count)
        done += count
        center.checkpoint("step \(done)")
    }
    return simulation
}
