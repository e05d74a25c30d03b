package import Foundation
import NotifyKit

/// The demo's own account of a run: what it posted and received, per name and per thread, how many
/// registrations are live and which bugs it planted. notifytop's numbers for the same run must
/// equal these (the fidelity test), so nothing here is taken from the trace stream.
///
/// Printed at exit and on SIGUSR1, or written as JSON with `--truth FILE`.
package struct GroundTruth: Codable, Sendable, Equatable {
    /// One thread's counts; `id` is the ``NotifyThread/id`` events carry.
    package struct ThreadCounts: Codable, Sendable, Equatable {
        /// The thread's ``NotifyThread/id``, as trace events carry it.
        package var id: UInt64
        /// The kernel thread id.
        package var tid: Int32
        /// The thread's name when NotifyKit first saw it.
        package var name: String
        /// True for the process's main thread.
        package var isMain: Bool
        /// Posts made on this thread (the progress queue's included, on the main lane).
        package var posts: Int
        /// Handler runs on this thread.
        package var deliveries: Int
        /// ``posts`` by notification name.
        package var postsByName: [String: Int]
        /// ``deliveries`` by notification name.
        package var deliveriesByName: [String: Int]
    }

    /// The coalescing queue of download progress, whose posts the queue makes on the app's behalf.
    package struct ProgressQueue: Codable, Sendable, Equatable {
        /// Progress notifications handed to the queue.
        package var enqueued: Int
        /// Pending ones replaced by a newer one for the same download.
        package var coalesced: Int
        /// Waiting for the next run-loop pass.
        package var pending: Int
        /// Posted by the queue: enqueued − coalesced − pending.
        package var posted: Int
    }

    /// One planted bug and how many instances of it the app made.
    package struct PlantedBug: Codable, Sendable, Equatable {
        /// The bug's `--bugs` name.
        package var bug: String
        /// The rule it triggers, e.g. "R1 ORPHANED_REGISTRATION".
        package var rule: String
        /// How many times the app planted it so far.
        package var instances: Int
        /// The notification name it lives on, which its warning must be about.
        package var name: String
    }

    /// The scenario's name.
    package var scenario: String
    /// The seed of every choice.
    package var seed: UInt64
    /// The demo's process id.
    package var pid: Int32
    /// Seconds since the app was built.
    package var elapsedSeconds: Double
    /// Posts per second over the run, as the stress scenario reports it.
    package var postsPerSecond: Double
    /// Posts over all threads.
    package var posts: Int
    /// Handler runs over all threads.
    package var deliveries: Int
    /// ``posts`` by notification name.
    package var postsByName: [String: Int]
    /// ``deliveries`` by notification name.
    package var deliveriesByName: [String: Int]
    /// Per-thread counts, by ``ThreadCounts/id``.
    package var threads: [ThreadCounts]
    /// The center's live registrations when the snapshot was taken.
    package var registrationsLive: Int
    /// ``registrationsLive`` by notification name (`"*"` for all names), from the center's table.
    package var liveRegistrationsByName: [String: Int]
    /// Registrations the app made since launch.
    package var registrations: Int
    /// Registrations ended since launch (by removal, token, or a participant's deallocation):
    /// ``registrations`` − ``registrationsLive``.
    package var removals: Int
    /// ``registrations`` by notification name.
    package var registrationsByName: [String: Int]
    /// The download-progress coalescing queue.
    package var progressQueue: ProgressQueue
    /// The planted bugs, in `--list-scenarios` order.
    package var bugs: [PlantedBug]
    /// The silent bugs planted (`--silent-bugs`), in planting order: for each, the post its
    /// observer missed, the observer's site and the reason an explanation must give.
    package var silentBugs: [SilentBugTruth]

    /// The JSON `--truth` writes: keys sorted, indented.
    package func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var data = try encoder.encode(self)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Writes ``jsonData()`` to `path`, replacing the file atomically.
    package func write(to path: String) throws {
        try jsonData().write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The report printed to standard output.
    package var text: String {
        var lines = [
            "notify-demo ground truth: scenario \(scenario), seed \(seed), pid \(pid), "
                + String(format: "%.1f s", elapsedSeconds),
            "  posts \(posts) (\(Int(postsPerSecond.rounded()))/s), deliveries \(deliveries), "
                + "registrations live \(registrationsLive)",
            "  registrations made \(registrations), removed \(removals)",
            "  progress queue: \(progressQueue.enqueued) enqueued, \(progressQueue.coalesced) coalesced, "
                + "\(progressQueue.posted) posted, \(progressQueue.pending) pending",
            "  " + "name".padding(toLength: 30, withPad: " ", startingAt: 0) + "   posts  deliveries  live",
        ]
        for name in DemoName.allCases {
            let posted = postsByName[name.string] ?? 0
            let delivered = deliveriesByName[name.string] ?? 0
            let live = liveRegistrationsByName[name.string] ?? 0
            guard posted + delivered + live > 0 else { continue }
            lines.append(
                "  " + name.string.padding(toLength: 30, withPad: " ", startingAt: 0)
                    + String(format: " %7d %11d %5d", posted, delivered, live))
        }
        lines.append("  threads:")
        for thread in threads {
            let label = "#\(thread.id) \(thread.name) (tid \(thread.tid)\(thread.isMain ? ", main" : ""))"
            lines.append(
                "    " + label.padding(toLength: 36, withPad: " ", startingAt: 0)
                    + String(format: " posts %7d  deliveries %7d", thread.posts, thread.deliveries))
        }
        lines.append(bugs.isEmpty ? "  bugs planted: none" : "  bugs planted:")
        for bug in bugs {
            lines.append(
                "    " + bug.bug.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + bug.rule.padding(toLength: 28, withPad: " ", startingAt: 0)
                    + bug.name.padding(toLength: 24, withPad: " ", startingAt: 0) + "\(bug.instances) instance(s)")
        }
        if !silentBugs.isEmpty { lines.append("  silent bugs planted:") }
        for silent in silentBugs {
            lines.append(
                "    " + silent.bug.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + silent.name.padding(toLength: 24, withPad: " ", startingAt: 0) + "observer at \(silent.site)"
                    + (silent.coalesced.map { ", \($0) enqueue(s) merged into its post" } ?? ""))
        }
        return lines.joined(separator: "\n")
    }
}

extension GroundTruth {
    /// Folds the per-thread tallies into a report. `queuePosts` are the progress queue's posts,
    /// made on `queueThread`.
    init(
        configuration: DemoConfiguration, elapsed: Double, tallies: [ThreadTally.Counts], queue: ProgressQueue,
        queueThread: NotifyThread, registrationsLive: Int, liveByName: [String: Int], registrationsMade: [Int],
        planted: PlantedBugs, silentBugs: [SilentBugTruth] = []
    ) {
        var byThread: [UInt64: ThreadCounts] = [:]
        var postsByName: [String: Int] = [:]
        var deliveriesByName: [String: Int] = [:]
        func entry(for thread: NotifyThread) -> ThreadCounts {
            byThread[thread.id]
                ?? ThreadCounts(
                    id: thread.id, tid: thread.systemID, name: thread.name, isMain: thread.isMain, posts: 0,
                    deliveries: 0,
                    postsByName: [:], deliveriesByName: [:])
        }
        func add(_ count: Int, of name: DemoName, to thread: NotifyThread, delivered: Bool) {
            guard count > 0 else { return }
            var counts = entry(for: thread)
            if delivered {
                counts.deliveries += count
                counts.deliveriesByName[name.string, default: 0] += count
                deliveriesByName[name.string, default: 0] += count
            } else {
                counts.posts += count
                counts.postsByName[name.string, default: 0] += count
                postsByName[name.string, default: 0] += count
            }
            byThread[thread.id] = counts
        }
        for tally in tallies {
            for name in DemoName.allCases {
                add(tally.posts[name.rawValue], of: name, to: tally.thread, delivered: false)
                add(tally.deliveries[name.rawValue], of: name, to: tally.thread, delivered: true)
            }
        }
        add(queue.posted, of: .downloadProgress, to: queueThread, delivered: false)
        let posts = postsByName.values.reduce(0, +)
        var registrationsByName: [String: Int] = [:]
        for name in DemoName.allCases where registrationsMade[name.rawValue] > 0 {
            registrationsByName[name.string] = registrationsMade[name.rawValue]
        }
        let registrations = registrationsMade.reduce(0, +)
        self.init(
            scenario: configuration.scenario.rawValue, seed: configuration.seed, pid: getpid(),
            elapsedSeconds: elapsed, postsPerSecond: elapsed > 0 ? Double(posts) / elapsed : 0, posts: posts,
            deliveries: deliveriesByName.values.reduce(0, +), postsByName: postsByName,
            deliveriesByName: deliveriesByName, threads: byThread.values.sorted { $0.id < $1.id },
            registrationsLive: registrationsLive, liveRegistrationsByName: liveByName, registrations: registrations,
            removals: registrations - registrationsLive, registrationsByName: registrationsByName,
            progressQueue: queue,
            bugs: configuration.bugs.map { bug in
                PlantedBug(bug: bug.rawValue, rule: bug.rule, instances: planted.count(of: bug), name: bug.name.string)
            }, silentBugs: silentBugs)
    }
}
