import Foundation
import NotifyKit

/// Benchmark 4: the same fixed number of posts per thread to one name with 10 observers, on one
/// thread and then on two at once; the speed-up is 2 × (one-thread wall time) ÷ (two-thread wall
/// time). Handlers count per thread (``Handlers/countingPerThread``), so the only shared writes
/// are the center's own. A speed-up needs two idle cores: trials during which other processes took
/// a CPU are run again, a result that could not avoid them is reported as inconclusive, and so is
/// every speed-up when the same handlers called with nothing shared do not nearly double.
struct ContentionWorkload: Workload {
    static let observers = 10
    static let minimumSpeedUp = 1.5

    /// Below this the machine did not run two threads at once, and no speed-up is judged.
    static let machineSpeedUp = 1.8

    static let machineRow = "contention, 2 ÷ 1 with nothing shared (machine check)"
    static let oneThreadRow = "contention, 1 thread, 10 observers (ns/post)"
    static let twoThreadRow = "contention, 2 threads, 10 observers (wall ns/post)"
    static let speedUpRow = "contention, 2 threads ÷ 1 thread throughput"
    static let lockHeldRow = "contention, 2 ÷ 1 with the lock held across callouts"
    static let probedRow = "contention, 2 threads ÷ 1 thread throughput, recorder attached"
    /// Records each posting thread's ring holds: a trial's events fit, so none is dropped.
    static let probedRingCapacity = 1 << 18

    let profile: Profile

    var rowNames: [String] {
        [Self.machineRow, Self.oneThreadRow, Self.twoThreadRow, Self.speedUpRow, Self.probedRow, Self.lockHeldRow]
    }

    struct Result {
        var oneThreadNsPerPost: Double
        var twoThreadNsPerPost: Double
        var speedUp: Double
        /// Other processes kept taking the CPU, so some trials had to be kept anyway.
        var disturbed: Bool
    }

    func run(_ options: BenchOptions) throws -> [Row] {
        let pool = WorkerPool(size: 2)
        defer { pool.stop() }

        // Always measured: it decides whether the other speed-ups can be judged at all.
        progress(Self.machineRow)
        let machine = try measure(Unshared(handlers: Self.observers), pool, "Unshared")
        let twoCores = machine.speedUp >= Self.machineSpeedUp && !machine.disturbed
        var machineRow = Row(Self.machineRow)
        machineRow.floor = .factor(machine.speedUp)
        // A check of the machine, not of a center: it judges whether the speed-ups below can be judged.
        let threshold = Cell.decimal(Self.machineSpeedUp, places: 1)
        machineRow.target = "≥ \(threshold)× (floor column), else none below is judged"
        var rows = [machineRow].filter { options.selects($0.benchmark) }

        if [Self.oneThreadRow, Self.twoThreadRow, Self.speedUpRow].contains(where: options.selects) {
            progress("contention, 1 vs 2 threads")
            var results: [Column: Result] = [:]
            results[.notifyKit] = try measure(fixture(NotifyKitCenter()), pool, "NotifyKitCenter")
            results[.foundation] = try measure(fixture(FoundationCenter()), pool, "FoundationCenter")
            results[.floor] = try measure(fixture(FloorCenter()), pool, "FloorCenter")
            var oneThread = Row(Self.oneThreadRow)
            var twoThreads = Row(Self.twoThreadRow)
            var speedUp = Row(Self.speedUpRow)
            for (column, result) in results {
                oneThread[column] = .nanoseconds(result.oneThreadNsPerPost)
                twoThreads[column] = .nanoseconds(result.twoThreadNsPerPost)
                speedUp[column] = .factor(result.speedUp)
            }
            if let notifyKit = results[.notifyKit] {
                speedUp.expect(
                    "NotifyKit ≥ \(Cell.decimal(Self.minimumSpeedUp, places: 1))× (Foundation ≈ 1.1×)",
                    notifyKit.speedUp >= Self.minimumSpeedUp)
            }
            if !twoCores || results.values.contains(where: \.disturbed) { speedUp.markInconclusive() }
            rows += [oneThread, twoThreads, speedUp].filter { options.selects($0.benchmark) }
        }

        if options.selects(Self.probedRow) {
            progress(Self.probedRow)
            let result = try measureProbed(pool)
            var row = Row(Self.probedRow)
            row.notifyKit = .factorOf(
                result.speedUp, numerator: result.oneThreadNsPerPost, denominator: result.twoThreadNsPerPost)
            row.expect(
                "≥ \(Cell.decimal(RecordWorkload.scalingTarget, places: 1))×",
                result.speedUp >= RecordWorkload.scalingTarget)
            if !twoCores || result.disturbed { row.markInconclusive() }
            rows.append(row)
        }

        if options.selects(Self.lockHeldRow) {
            progress(Self.lockHeldRow)
            let result = try measure(LockHeldFloor(floor: fixture(FloorCenter())), pool, "LockHeldFloor")
            var row = Row(Self.lockHeldRow)
            row.floor = .factor(result.speedUp)
            row.expect("< 1× (floor column)", result.speedUp < 1)
            if !twoCores || result.disturbed { row.markInconclusive() }
            rows.append(row)
        }
        return rows
    }

    private func fixture<Center: BenchCenter>(_ center: Center) -> Center {
        for _ in 0..<Self.observers { _ = center.add(BenchNames.target, Handlers.countingPerThread) }
        return center
    }

    /// The speed-up of the probed post: the posting threads write their own rings, which a
    /// recorder drains between trials (a drainer running beside two posting threads would need a
    /// third core). A trial's events fit in the rings, so every post takes the path that records.
    private func measureProbed(_ pool: WorkerPool) throws -> Result {
        let poster = fixture(NotifyKitCenter())
        let recorder = ProbeRecorder(capacityPerThread: Self.probedRingCapacity)
        let attachment = poster.center.attach(recorder)
        defer { attachment.detach() }
        var events: [ProbeEvent] = []
        var dropped: UInt64 = 0
        let result = try measure(
            poster, pool, "NotifyKitCenter, recorder attached",
            posts: Self.probedRingCapacity / (Self.observers + 1) * 7 / 8
        ) {
            events.removeAll(keepingCapacity: true)
            dropped += recorder.drain(into: &events)
        }
        guard dropped == 0 else {
            throw DeliveryMismatch(
                benchmark: Self.probedRow, center: "NotifyKitCenter", detail: "the rings dropped \(dropped) events")
        }
        return result
    }

    /// - Parameters:
    ///   - fixedPosts: Posts per thread per trial; calibrated to the profile's trial time when nil.
    ///   - afterTrial: Runs after each trial, outside its time.
    private func measure<P: Poster>(
        _ poster: P, _ pool: WorkerPool, _ label: String, posts fixedPosts: Int? = nil,
        afterTrial: () -> Void = {}
    ) throws -> Result {
        pool.resetDeliveries()
        var posted = 0
        func trial(threads: Int, posts: Int) -> WorkerPool.Trial {
            posted += threads * posts
            let result = pool.run(threads: threads) {
                for _ in 0..<posts { poster.post(BenchNames.target) }
            }
            afterTrial()
            return result
        }

        var posts = fixedPosts ?? 100
        if fixedPosts == nil {
            // Calibrate the fixed number of posts per thread on one thread.
            var wall = trial(threads: 1, posts: posts).wall
            while wall < profile.contentionTrialNanos / 4 {
                posts *= max(2, min(100, Int(profile.contentionTrialNanos / 2 / max(wall, 1))))
                wall = trial(threads: 1, posts: posts).wall
            }
            posts = max(1, Int(Double(posts) * Double(profile.contentionTrialNanos) / Double(wall)))
        }
        _ = trial(threads: 2, posts: posts)

        // Alternate one- and two-thread trials; one during which a worker waited for a CPU taken by
        // another process is run again, up to twice the planned number of trials.
        var walls: [Int: [Double]] = [1: [], 2: []]
        var retries = 0
        var acceptedDisturbed = 0
        while walls.values.contains(where: { $0.count < profile.contentionTrials }) {
            for threads in [1, 2] where walls[threads, default: []].count < profile.contentionTrials {
                let result = trial(threads: threads, posts: posts)
                if !result.isUndisturbed {
                    if retries < 2 * profile.contentionTrials {
                        retries += 1
                        continue
                    }
                    acceptedDisturbed += 1
                }
                walls[threads, default: []].append(Double(result.wall))
            }
        }
        let expected = posted * Self.observers
        guard pool.deliveries == expected else {
            throw DeliveryMismatch(
                benchmark: Self.speedUpRow, center: label,
                detail: "\(pool.deliveries) deliveries counted, expected \(expected)")
        }
        let one = walls[1, default: []].median
        let two = walls[2, default: []].median
        return Result(
            oneThreadNsPerPost: one / Double(posts), twoThreadNsPerPost: two / Double(2 * posts),
            speedUp: 2 * one / two, disturbed: acceptedDisturbed > 0)
    }
}

/// No center at all: the handlers called straight from the posting thread, so two threads share
/// nothing. Its speed-up shows whether the machine really runs two threads at once.
struct Unshared: Poster {
    let handlers: Int

    func post(_ name: Notification.Name) {
        let notification = Notification(name: name)
        for _ in 0..<handlers { Handlers.countingPerThread(notification) }
    }
}
