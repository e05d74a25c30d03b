import Foundation
import NotifyDemo
import NotifyTestSupport
import NotifyWire
import NotifyModel
import NotifyTraceViewer
import Testing

/// The fidelity test of the demo: the demo's own ground truth equals the inspector model's
/// numbers after a run received through a real inspector socket, and again after that session's
/// recording is replayed from its file into a fresh model.
@Suite("The inspector model's numbers equal the demo's ground truth, live and replayed", .timeLimit(.minutes(10)))
struct ModelFidelityTests {
    @Test(
        "posts and deliveries per name and per thread, and live registrations, equal the ground truth",
        arguments: [DemoScenario.steady, .leaky, .quiet])
    func modelEqualsGroundTruth(scenario: DemoScenario) throws {
        let path = temporaryPath("demo-model", suffix: ".jsonl")
        defer { unlink(path) }
        let run = try RecordedDemoTrace.record(
            DemoConfiguration(scenario: scenario, seed: 4, slowHandlerMilliseconds: 0), steps: 400,
            recordingPath: path)
        #expect(run.end == .producerStopped("inspector-stopped"))

        let live = InspectorState.fold(run)
        check(live, against: run.truth, names: threadNames(in: run.events), "live")

        let reader = try TraceReader.open(file: path)
        var replayed: [TraceEvent] = []
        while case .event(let event) = reader.next() { replayed.append(event) }
        #expect(reader.malformedLines == 0)
        #expect(replayed == run.events, "the replay reads back \(replayed.count) of \(run.events.count) events")
        let replay = InspectorState.fold(replayed, marks: run.marks)
        check(replay, against: run.truth, names: threadNames(in: replayed), "replay")
        #expect(replay.names == live.names)
        #expect(replay.threads == live.threads)
        #expect(replay.registrations == live.registrations)
        #expect(replay.findings == live.findings)
        #expect(replay.overview == live.overview)
    }

    /// Every name the stream gave each thread, in order. The demo runs inside the test process,
    /// where other suites' operation queues share its pool threads and rename them.
    private func threadNames(in events: [TraceEvent]) -> [UInt64: [String]] {
        var names: [UInt64: [String]] = [:]
        for case .thread(let thread) in events { names[thread.id, default: []].append(thread.name) }
        return names
    }

    private func check(
        _ state: InspectorState, against truth: GroundTruth, names: [UInt64: [String]], _ label: String
    ) {
        #expect(state.eventsLost == 0, "\(label): events lost")
        #expect(state.detailLoss.unknownRegistrationEvents == 0, "\(label): events about unknown registrations")
        #expect(state.detailLoss.untrackedRegistrations == 0, "\(label): untracked registrations")

        // Totals and live registrations.
        #expect(state.totals.posts == UInt64(truth.posts), "\(label): posts")
        #expect(state.totals.deliveries == UInt64(truth.deliveries), "\(label): deliveries")
        #expect(state.liveRegistrations == truth.registrationsLive, "\(label): live registrations")
        #expect(state.overview.liveRegistrations == truth.registrationsLive, "\(label): overview's live registrations")

        // Per name: counts, and which threads posted and handled each name.
        let named = state.names.filter { !$0.isWildcard }
        let posts = Dictionary(uniqueKeysWithValues: named.filter { $0.posts > 0 }.map { ($0.name, Int($0.posts)) })
        let deliveries = Dictionary(
            uniqueKeysWithValues: named.filter { $0.deliveries > 0 }.map { ($0.name, Int($0.deliveries)) })
        #expect(posts == truth.postsByName, "\(label): posts per name")
        #expect(deliveries == truth.deliveriesByName, "\(label): deliveries per name")
        var posters: [String: Set<UInt64>] = [:]
        var handlers: [String: Set<UInt64>] = [:]
        for thread in truth.threads {
            for (name, count) in thread.postsByName where count > 0 { posters[name, default: []].insert(thread.id) }
            for (name, count) in thread.deliveriesByName where count > 0 {
                handlers[name, default: []].insert(thread.id)
            }
        }
        for row in named where row.posts > 0 || row.deliveries > 0 {
            #expect(
                Set(row.postingThreads.ids) == posters[row.name, default: []],
                "\(label): threads posting \(row.name)")
            #expect(
                Set(row.handlingThreads.ids) == handlers[row.name, default: []],
                "\(label): threads handling \(row.name)")
        }

        // Per thread: who it is, and its posts and deliveries.
        for thread in truth.threads {
            guard let row = state.thread(thread.id) else {
                Issue.record("\(label): thread #\(thread.id) \(thread.name) is missing from the model")
                continue
            }
            #expect(row.posts == UInt64(thread.posts), "\(label): posts on thread #\(thread.id) \(thread.name)")
            #expect(
                row.deliveries == UInt64(thread.deliveries),
                "\(label): deliveries on thread #\(thread.id) \(thread.name)")
            let seen = "tid \(row.systemID), main \(row.isMain)"
            let truthful = "tid \(thread.tid), main \(thread.isMain)"
            #expect(seen == truthful, "\(label): thread #\(thread.id) in the model and in the truth")
            // The truth names the thread as the demo saw it; the model shows the stream's latest name.
            let given = names[thread.id, default: []]
            #expect(given.contains(thread.name), "\(label): thread #\(thread.id) named \(given), not \(thread.name)")
            #expect(row.name == given.last, "\(label): thread #\(thread.id) shows the latest name the stream gave")
        }
        let active = state.threads.filter { $0.posts > 0 || $0.deliveries > 0 }.map(\.id)
        #expect(Set(active) == Set(truth.threads.map(\.id)), "\(label): threads that posted or handled")
    }
}
