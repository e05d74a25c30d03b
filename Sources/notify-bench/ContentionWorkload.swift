import Foundation

/// Benchmark 4: the same fixed number of posts per thread to one name with 10 observers, on one
/// thread and then on two at once; the speed-up is 2 × (one-thread wall time) ÷ (two-thread wall
/// time). Handlers count per thread (``Handlers/countingPerThread``), so the only shared writes
/// are the center's own.
struct ContentionWorkload: Workload {
    static let observers = 10
    static let minimumSpeedUp = 1.5

    static let oneThreadRow = "contention, 1 thread, 10 observers (ns/post)"
    static let twoThreadRow = "contention, 2 threads, 10 observers (wall ns/post)"
    static let speedUpRow = "contention, 2 threads ÷ 1 thread throughput"
    static let lockHeldRow = "contention, 2 ÷ 1 with the lock held across callouts"

    let profile: Profile

    var rowNames: [String] { [Self.oneThreadRow, Self.twoThreadRow, Self.speedUpRow, Self.lockHeldRow] }

    struct Result {
        var oneThreadNsPerPost: Double
        var twoThreadNsPerPost: Double
        var speedUp: Double
    }

    func run(_ options: BenchOptions) throws -> [Row] {
        let pool = WorkerPool(size: 2)
        defer { pool.stop() }
        var rows: [Row] = []

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
                speedUp.expect("NotifyKit ≥ \(Cell.decimal(Self.minimumSpeedUp, places: 1))× (Foundation ≈ 1.1×)",
                               notifyKit.speedUp >= Self.minimumSpeedUp)
            }
            rows += [oneThread, twoThreads, speedUp].filter { options.selects($0.benchmark) }
        }

        if options.selects(Self.lockHeldRow) {
            progress(Self.lockHeldRow)
            let floor = fixture(FloorCenter())
            let result = try measure(LockHeldFloor(floor: floor), pool, "LockHeldFloor")
            var row = Row(Self.lockHeldRow)
            row.floor = .factor(result.speedUp)
            row.expect("< 1× (floor column)", result.speedUp < 1)
            rows.append(row)
        }
        return rows
    }

    private func fixture<Center: BenchCenter>(_ center: Center) -> Center {
        for _ in 0..<Self.observers { _ = center.add(BenchNames.target, Handlers.countingPerThread) }
        return center
    }

    private func measure<P: Poster>(_ poster: P, _ pool: WorkerPool, _ label: String) throws -> Result {
        pool.resetDeliveries()
        var posted = 0
        func trial(threads: Int, posts: Int) -> UInt64 {
            posted += threads * posts
            return pool.run(threads: threads) {
                for _ in 0..<posts { poster.post(BenchNames.target) }
            }
        }

        // Calibrate the fixed number of posts per thread on one thread.
        var posts = 100
        var wall = trial(threads: 1, posts: posts)
        while wall < profile.contentionTrialNanos / 4 {
            posts *= max(2, min(100, Int(profile.contentionTrialNanos / 2 / max(wall, 1))))
            wall = trial(threads: 1, posts: posts)
        }
        posts = max(1, Int(Double(posts) * Double(profile.contentionTrialNanos) / Double(wall)))
        _ = trial(threads: 2, posts: posts)

        var oneThread: [Double] = []
        var twoThreads: [Double] = []
        for _ in 0..<profile.contentionTrials {
            oneThread.append(Double(trial(threads: 1, posts: posts)))
            twoThreads.append(Double(trial(threads: 2, posts: posts)))
        }
        let expected = posted * Self.observers
        guard pool.deliveries == expected else {
            throw DeliveryMismatch(
                benchmark: Self.speedUpRow, center: label,
                detail: "\(pool.deliveries) deliveries counted, expected \(expected)")
        }
        let one = oneThread.median
        let two = twoThreads.median
        return Result(
            oneThreadNsPerPost: one / Double(posts), twoThreadNsPerPost: two / Double(2 * posts),
            speedUp: 2 * one / two)
    }
}
