import Dispatch
import Foundation
import NotifyKit
import Synchronization

/// What every part of the demo app shares: the center, the counters, where handlers run, how work
/// reaches the main thread, and which bugs are planted.
///
/// App code posts through ``post(_:object:userInfo:file:line:)`` and every handler starts with
/// ``received(_:)``, so the ground truth counts exactly what the center sees. Callsites are passed
/// through, so notifytop shows the app's file and line, not this one.
final class DemoContext: @unchecked Sendable {  // immutable after init; the parts are thread-safe
    /// How the app is being driven.
    enum Mode: Sendable {
        /// Real threads, queues and run loops; the main lane is the process's main thread.
        case live
        /// Everything on the calling thread in a fixed order, for tests (see ``DemoSimulation``).
        case deterministic
    }

    let center: NotifyCenter
    /// The sync service's own center, streamed beside ``center`` by the same inspector; nil when
    /// the run inspects one center only.
    let syncCenter: NotifyCenter?
    let configuration: DemoConfiguration
    let mode: Mode
    let tally = TallyBook()
    let targets: DemoTargets
    let planted = PlantedBugs()
    /// The silent bugs planted, with their expected explanations.
    let silentBugs = SilentBugLog()
    /// Registrations the app made, per name.
    let registrations = RegistrationTally()
    /// UI observers declare `mainThreadOnly` only when the main lane really is the main thread: in
    /// the deterministic mode it is a test thread, and the declaration would be false.
    let uiRunsOnMainThread: Bool
    /// Posts so far over all threads, kept only when the run is paced (a shared counter would
    /// cost the unpaced stress run a contended cache line per post).
    let pacedPosts = Atomic<Int>(0)
    /// Whether the app registers and posts typed messages: live runs only. Main-actor messages need
    /// the main thread, which the deterministic simulation's thread only plays, and async messages
    /// are delivered on Swift's task pool, whose order the simulation could not fix or wait for.
    var typedMessages: Bool { mode == .live }
    /// Async messages posted whose observer has not run yet, so the end of a live run can wait for them.
    let asyncMessagesInFlight = Atomic<Int>(0)
    private let paced: Bool
    private let enabled: [Bool]

    init(
        center: NotifyCenter, syncCenter: NotifyCenter? = nil, configuration: DemoConfiguration, mode: Mode,
        targets: DemoTargets
    ) {
        self.center = center
        self.syncCenter = syncCenter
        self.configuration = configuration
        self.mode = mode
        self.targets = targets
        self.uiRunsOnMainThread = mode == .live && NotifyThread.current.isMain
        enabled = DemoBug.allCases.map { configuration.bugs.contains($0) }
        paced = configuration.rate != nil
    }

    /// True when `bug` is planted in this run.
    @inline(__always)
    func has(_ bug: DemoBug) -> Bool {
        enabled[DemoBug.allCases.firstIndex(of: bug)!]
    }

    /// Counts and posts `name`; the callsite is the caller's.
    @inline(__always)
    func post(
        _ name: DemoName, object: AnyObject? = nil, userInfo: [AnyHashable: Any]? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        tally.countPost(name)
        if paced { pacedPosts.add(1, ordering: .relaxed) }
        center.post(name: name.name, object: object, userInfo: userInfo, file: file, line: line)
    }

    /// Counts and posts a main-actor message about `subject`; the callsite is the caller's. Live
    /// only (see ``typedMessages``): the main lane is then the main thread, the main actor's.
    func post<Message: NotifyCenter.MainActorMessage>(
        _ message: Message, _ name: DemoName, subject: Message.Subject, file: StaticString = #fileID,
        line: UInt = #line
    ) where Message: Sendable, Message.Subject: AnyObject & Sendable {
        tally.countPost(name)
        if paced { pacedPosts.add(1, ordering: .relaxed) }
        MainActor.assumeIsolated { [center] in center.post(message, subject: subject, file: file, line: line) }
    }

    /// Counts and posts an async message about `subject`, expecting `observers` deliveries; the
    /// callsite is the caller's.
    func post<Message: NotifyCenter.AsyncMessage>(
        _ message: Message, _ name: DemoName, subject: Message.Subject, observers: Int,
        file: StaticString = #fileID, line: UInt = #line
    ) where Message.Subject: AnyObject {
        tally.countPost(name)
        if paced { pacedPosts.add(1, ordering: .relaxed) }
        asyncMessagesInFlight.add(observers, ordering: .relaxed)
        center.post(message, subject: subject, file: file, line: line)
    }

    /// Counts one handler run; every handler of the app calls this first.
    @inline(__always)
    func received(_ name: DemoName) {
        tally.countDelivery(name)
    }

    /// Counts one registration the app is about to make for `name`; every registering call of the
    /// app is preceded by this.
    func registered(_ name: DemoName) {
        registrations.add(name)
    }

    /// Runs `work` on the main lane: through the main queue when live (the main run loop drains
    /// it), inline in the deterministic mode, whose single thread is the main lane.
    func onMain(_ work: @escaping @Sendable () -> Void) {
        switch mode {
        case .live: DispatchQueue.main.async(execute: work)
        case .deterministic: work()
        }
    }
}

/// Where the app's handlers run. Live, each is a real executor; in the deterministic mode the
/// asynchronous ones deliver on the posting thread, so the event order is fixed by the seed.
struct DemoTargets: Sendable {
    /// UI observers of names posted off the main thread: `.main` (hop to the main queue).
    let ui: DeliveryTarget
    /// Analytics and cache work: a serial dispatch queue.
    let background: DeliveryTarget
    /// Download bookkeeping: a ``DeliveryThread`` with its own run loop.
    let io: DeliveryTarget
    /// Sync: an `OperationQueue`; `post` waits for the operation, so it stays in order even in
    /// the deterministic mode.
    let sync: DeliveryTarget

    /// The live executors, which stay alive as long as the targets do.
    static func live(background: DispatchQueue, io: DeliveryThread, sync: OperationQueue) -> DemoTargets {
        DemoTargets(ui: .main, background: .dispatchQueue(background), io: .thread(io), sync: .operationQueue(sync))
    }

    /// Everything on the posting thread except sync, which is synchronous anyway.
    static func deterministic(sync: OperationQueue) -> DemoTargets {
        DemoTargets(ui: .posting, background: .posting, io: .posting, sync: .operationQueue(sync))
    }
}

/// How many instances of each bug the app planted so far.
final class PlantedBugs: @unchecked Sendable {  // `lock` guards `counts`
    private let lock = NSLock()
    private var counts = [Int](repeating: 0, count: DemoBug.allCases.count)

    /// Records one more instance of `bug`.
    func plant(_ bug: DemoBug) {
        let index = DemoBug.allCases.firstIndex(of: bug)!
        lock.withLock { counts[index] += 1 }
    }

    /// Instances per bug.
    func count(of bug: DemoBug) -> Int {
        let index = DemoBug.allCases.firstIndex(of: bug)!
        return lock.withLock { counts[index] }
    }
}

/// How many registrations the app made, per name: the truth's registration totals.
final class RegistrationTally: @unchecked Sendable {  // `lock` guards `counts`
    private let lock = NSLock()
    private var counts = [Int](repeating: 0, count: DemoName.allCases.count)

    func add(_ name: DemoName) {
        lock.withLock { counts[name.rawValue] += 1 }
    }

    /// Registrations made so far, by ``DemoName/rawValue``.
    var snapshot: [Int] { lock.withLock { counts } }
}
