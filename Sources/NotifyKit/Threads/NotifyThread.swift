import CNotifyTicks
import NotifySystem
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A thread as events name it: a stable numeric id that is never reused in the process, the
/// kernel's thread id, a name and whether it is the process's main thread.
///
/// Names are labels, not identity, and may change (a dispatch worker takes the label of each queue
/// it delivers for), so everything that lasts keys on ``id``. The name is the one the app knows
/// the thread by, found in this order: the name given to a ``DeliveryThread`` or to
/// ``nameCurrentThread(_:)``; the name of the operation queue, or the label of the dispatch queue,
/// the thread first worked for (root and main queue labels do not count); the kernel's name, at
/// most 15 bytes, as a last resort. Foundation's `Thread.name` is not consulted: on Linux it reads
/// the kernel's name, and a name set before `start()` is dropped by Foundation itself.
public struct NotifyThread: Sendable, Hashable, CustomStringConvertible {
    /// Assigned in the order threads first touch NotifyKit, starting at 1; never reused.
    public let id: UInt64
    /// The kernel thread id (`gettid`), as `top -H` and `/proc/<pid>/task` show it.
    public let systemID: Int32
    /// The thread's name as the app knows it: see the type's discussion.
    public let name: String
    /// True only for the process's initial thread (`gettid() == getpid()`).
    public let isMain: Bool

    public var description: String {
        "thread #\(id) \"\(name)\" (tid \(systemID)\(isMain ? ", main" : ""))"
    }

    /// The calling thread, registered on first use.
    public static var current: NotifyThread { ThreadContext.current.thread }

    /// A thread seen earlier in this process, by id: what a trace exporter introduces once.
    public static func lookup(_ id: UInt64) -> NotifyThread? {
        ThreadRegistry.known.withLock { $0[id] }
    }

    /// Every thread NotifyKit has seen that has not exited, in id order.
    public static var all: [NotifyThread] {
        ThreadRegistry.known.withLock { $0.values.sorted { $0.id < $1.id } }
    }

    /// Names the calling thread as the app knows it, at any length (the kernel keeps 15 bytes):
    /// later events, and trace viewers, use this name.
    public static func nameCurrentThread(_ name: String) {
        ThreadContext.current.rename(name)
    }

    /// Grows by one each time a known thread changes its name: an exporter that sees it change
    /// introduces the renamed threads again.
    public static var renameCount: UInt64 { ThreadRegistry.renames.load(ordering: .acquiring) }

    /// The ids of the threads renamed since ``renameCount`` was `count` (repeats possible), and the
    /// count they bring it to; nil ids when more renames happened than are remembered (then every
    /// thread may have a new name).
    public static func renames(since count: UInt64) -> (threads: [UInt64]?, count: UInt64) {
        ThreadRegistry.renameLog.withLock { log in (log.ids(since: count), log.total) }
    }
}

/// The latest renames, so an exporter looks up only the threads that changed.
struct RenameLog {
    static let capacity = 256
    private var ring: [UInt64] = []
    private(set) var total: UInt64 = 0

    mutating func append(_ id: UInt64) {
        if ring.count < Self.capacity {
            ring.append(id)
        } else {
            ring[Int(total % UInt64(Self.capacity))] = id
        }
        total += 1
    }

    func ids(since count: UInt64) -> [UInt64]? {
        guard count <= total else { return nil }
        let wanted = total - count
        guard wanted <= UInt64(ring.count) else { return nil }
        return (count..<total).map { ring[Int($0 % UInt64(Self.capacity))] }
    }
}

enum ThreadRegistry {
    static let known = LockedValue<[UInt64: NotifyThread]>([:])
    static let nextID = LockedValue<UInt64>(1)
    static let renames = Atomic<UInt64>(0)
    static let renameLog = LockedValue(RenameLog())

    /// Records that thread `id` has a new name.
    static func noteRename(of id: UInt64) {
        renameLog.withLock { $0.append(id) }
        renames.add(1, ordering: .releasing)
    }

    static let key: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key) { raw in
            guard let raw else { return }
            // Before letting go: a later destructor that posts registers the thread anew.
            if notify_thread_context() == raw { notify_set_thread_context(nil) }
            let context = Unmanaged<ThreadContext>.fromOpaque(raw).takeRetainedValue()
            _ = ThreadRegistry.known.withLock { $0.removeValue(forKey: context.thread.id) }
        }
        precondition(result == 0, "pthread_key_create failed: \(result)")
        return key
    }()
}

/// Per-thread bookkeeping for instrumented posts; reached through a pthread key, created lazily.
final class ThreadContext {
    /// Replaced only on its own thread, when the thread is renamed.
    @exclusivity(unchecked) private(set) var thread: NotifyThread
    /// The queue this thread was last named after (see ``name(after:)``); weak, so a new queue at
    /// a dead one's address is not taken for it.
    @exclusivity(unchecked) weak var namedAfterQueue: AnyObject?
    /// How many posts are being delivered on this thread right now (a post inside a handler is 2).
    @exclusivity(unchecked) var postDepth: Int = 0
    /// The post whose handlers are running on this thread, 0 when none.
    @exclusivity(unchecked) var currentPostID: UInt64 = 0

    /// The counter reading this thread's clock extrapolates from, and the time it stood for.
    @exclusivity(unchecked) private var anchorTicks: UInt64 = 0
    @exclusivity(unchecked) private var anchorNanos: UInt64 = 0
    /// ``TickClock/Rate/never`` until the first reading, and for good where the counter cannot be used.
    @exclusivity(unchecked) private var tickRate = TickClock.Rate.never

    /// This thread's rings, one per ``ProbeRecorder`` it has written to, and the last one used.
    @exclusivity(unchecked) var rings: [ProbeRecordRing] = []
    @exclusivity(unchecked) private var lastRecorderID: UInt64 = 0
    @exclusivity(unchecked) private var lastRing: Unmanaged<ProbeRecordRing>?

    /// Post ids this thread hands out without touching the process's counter: the ids after
    /// `lastPostID` up to `postIDLimit`, taken as one block. One counter serves every center, so a
    /// post's id is unique in the process and a nested post can name a parent on another center.
    @exclusivity(unchecked) private var lastPostID: UInt64 = 0
    @exclusivity(unchecked) private var postIDLimit: UInt64 = 0
    /// Ids a thread takes at once: a post then costs no atomic add on memory other posting threads
    /// write. One thread's posts get increasing ids; several threads' interleave by block.
    static let postIDBlock: UInt64 = 64
    private static let lastPostIDBlock = Atomic<UInt64>(0)
    private static let lastCenterSerial = Atomic<UInt64>(0)

    /// This thread's unwatched counters, one per center it counted for, and the last one used.
    @exclusivity(unchecked) var histories: [HistoryCounters] = []
    @exclusivity(unchecked) private var lastHistoryCenter: UInt64 = 0
    @exclusivity(unchecked) private var lastHistory: Unmanaged<HistoryCounters>?

    init(thread: NotifyThread) { self.thread = thread }

    static func newCenterSerial() -> UInt64 {
        lastCenterSerial.add(1, ordering: .relaxed).newValue
    }

    /// A new post id, unique in the process.
    @inline(__always)
    func takePostID() -> UInt64 {
        if lastPostID != postIDLimit {
            lastPostID &+= 1
            return lastPostID
        }
        return takePostIDBlock()
    }

    /// The id this thread's next probed post will take: a fresh block is taken now if this one is
    /// used up, so that the post takes exactly this id.
    func nextPostID() -> UInt64 {
        if lastPostID == postIDLimit {
            lastPostID = takePostIDBlock() &- 1
        }
        return lastPostID &+ 1
    }

    @inline(never)
    private func takePostIDBlock() -> UInt64 {
        let start = Self.lastPostIDBlock.wrappingAdd(Self.postIDBlock, ordering: .relaxed).oldValue
        lastPostID = start &+ 1
        postIDLimit = start &+ Self.postIDBlock
        return lastPostID
    }

    deinit {
        for ring in rings { ring.closed.store(true, ordering: .releasing) }
        for counters in histories { counters.closed.store(true, ordering: .releasing) }
    }

    /// This thread's unwatched counters for `center`, made and registered on first use.
    @inline(__always)
    func counters(for center: NotifyCenter) -> Unmanaged<HistoryCounters> {
        if center.serial == lastHistoryCenter, let lastHistory { return lastHistory }
        return findCounters(for: center)
    }

    @inline(never)
    private func findCounters(for center: NotifyCenter) -> Unmanaged<HistoryCounters> {
        histories.removeAll { $0.abandoned.load(ordering: .acquiring) }
        let counters =
            histories.first { $0.center == center.serial }
            ?? {
                let made = center.recordedHistory.makeCounters(thread: thread.id)
                histories.append(made)
                return made
            }()
        lastHistoryCenter = center.serial
        lastHistory = Unmanaged.passUnretained(counters)
        return Unmanaged.passUnretained(counters)
    }

    /// Runs `body` with this thread's ring for `recorder`, made and registered on first use.
    @inline(__always)
    func withRing<Result>(for recorder: ProbeRecorder, _ body: (ProbeRecordRing) -> Result) -> Result {
        if recorder.id == lastRecorderID, let lastRing {
            return lastRing._withUnsafeGuaranteedRef(body)
        }
        return findRing(for: recorder)._withUnsafeGuaranteedRef(body)
    }

    /// This thread's ring for a recorder held unretained, whose ``ProbeRecorder/id`` is `id`; the
    /// thread's ring list keeps it alive.
    @inline(__always)
    func ring(for recorder: Unmanaged<ProbeRecorder>, id: UInt64) -> Unmanaged<ProbeRecordRing> {
        if id == lastRecorderID, let lastRing { return lastRing }
        return recorder._withUnsafeGuaranteedRef { findRing(for: $0) }
    }

    @inline(never)
    private func findRing(for recorder: ProbeRecorder) -> Unmanaged<ProbeRecordRing> {
        rings.removeAll { $0.abandoned.load(ordering: .acquiring) }
        let ring: ProbeRecordRing
        if let existing = rings.first(where: { $0.recorderID == recorder.id }) {
            ring = existing
        } else {
            ring = ProbeRecordRing(thread: thread.id, recorderID: recorder.id, capacity: recorder.capacityPerThread)
            recorder.register(ring)
            rings.append(ring)
        }
        lastRecorderID = recorder.id
        lastRing = Unmanaged.passUnretained(ring)
        return Unmanaged.passUnretained(ring)
    }

    /// ``MonotonicClock`` nanoseconds, read for a third of the cost from the CPU's counter
    /// (see ``TickClock``): what probed posts time their handlers with. Readings on one thread may
    /// step back by a few nanoseconds when the thread anchors again; durations are clamped.
    @inline(__always)
    func now() -> UInt64 {
        let elapsed = notify_cpu_ticks() &- anchorTicks
        if elapsed < tickRate.anchorSpan {
            return anchorNanos &+ tickRate.nanos(inTicks: elapsed)
        }
        return anchorAgain()
    }

    /// ``now()`` for registrations and the history: never waits for the counter's rate to be
    /// measured (2 ms), but starts measuring it on a thread of its own and reads CLOCK_MONOTONIC
    /// until it is known.
    @inline(__always)
    func stamp() -> UInt64 {
        let elapsed = notify_cpu_ticks() &- anchorTicks
        if elapsed < tickRate.anchorSpan {
            return anchorNanos &+ tickRate.nanos(inTicks: elapsed)
        }
        return stampAgain()
    }

    /// The calling thread's ``stamp()``.
    @inline(__always)
    static func stamp() -> UInt64 {
        currentUnretained._withUnsafeGuaranteedRef { $0.stamp() }
    }

    @inline(never)
    private func stampAgain() -> UInt64 {
        guard TickClock.isRateKnown() else { return MonotonicClock.now() }
        return anchorAgain()
    }

    @inline(never)
    private func anchorAgain() -> UInt64 {
        guard let rate = TickClock.rate else { return MonotonicClock.now() }
        let anchor = TickClock.anchor()
        anchorTicks = anchor.ticks
        anchorNanos = anchor.nanos
        tickRate = rate
        return anchor.nanos
    }

    /// Runs `body` as the delivery of post `postID` on this thread: posts made inside it are
    /// nested one level deeper and name `postID` as their parent.
    @inline(__always)
    func withinPost<Result>(_ postID: UInt64, _ body: () -> Result) -> Result {
        let savedPost = currentPostID
        postDepth += 1
        currentPostID = postID
        defer {
            postDepth -= 1
            currentPostID = savedPost
        }
        return body()
    }

    /// The calling thread's ``NotifyThread/id``, read without retaining its context.
    @inline(__always)
    static var currentID: UInt64 {
        currentUnretained._withUnsafeGuaranteedRef { $0.thread.id }
    }

    static var current: ThreadContext {
        currentUnretained.takeUnretainedValue()
    }

    /// The calling thread's context, registered on first use; read from a thread-local slot (one
    /// load), not the pthread key. The key holds the reference until the thread exits, and only
    /// ``register(named:)`` at a thread's start replaces it, so a post may use it unretained.
    @inline(__always)
    static var currentUnretained: Unmanaged<ThreadContext> {
        if let raw = notify_thread_context() { return Unmanaged.fromOpaque(raw) }
        return Unmanaged.passUnretained(register(named: nil))
    }

    /// Registers the calling thread, replacing an earlier registration's name if one is given.
    @discardableResult
    static func register(named name: String?) -> ThreadContext {
        let tid = currentSystemID()
        let resolved = name ?? ThreadNaming.currentName(isMain: tid == getpid()) ?? currentKernelName()
        let existing = pthread_getspecific(ThreadRegistry.key).map {
            Unmanaged<ThreadContext>.fromOpaque($0).takeUnretainedValue()
        }
        let id =
            existing?.thread.id
            ?? ThreadRegistry.nextID.withLock { next in
                defer { next += 1 }
                return next
            }
        let thread = NotifyThread(id: id, systemID: tid, name: resolved, isMain: tid == getpid())
        let context = ThreadContext(thread: thread)
        if let existing {
            context.postDepth = existing.postDepth
            context.currentPostID = existing.currentPostID
            // The thread's records stay in its rings, in order.
            context.rings = existing.rings
            existing.rings = []
            context.histories = existing.histories
            existing.histories = []
        }
        ThreadRegistry.known.withLock { $0[id] = thread }
        // After the registry holds the new name: an exporter that sees the rename looks it up.
        if let existing, existing.thread.name != resolved { ThreadRegistry.noteRename(of: id) }
        if let old = pthread_getspecific(ThreadRegistry.key) {
            Unmanaged<ThreadContext>.fromOpaque(old).release()
        }
        let raw = Unmanaged.passRetained(context).toOpaque()
        pthread_setspecific(ThreadRegistry.key, raw)
        notify_set_thread_context(raw)
        return context
    }

    /// Gives the calling thread (this context's) a new name, kept under the same id.
    func rename(_ name: String) {
        guard name != thread.name else { return }
        let renamed = NotifyThread(id: thread.id, systemID: thread.systemID, name: name, isMain: thread.isMain)
        thread = renamed
        ThreadRegistry.known.withLock { $0[renamed.id] = renamed }
        ThreadRegistry.noteRename(of: renamed.id)
    }

    /// The kernel thread id, from `/proc/thread-self` ("<pid>/task/<tid>"): Glibc's module does not
    /// export `gettid`, and this runs once per thread.
    private static func currentSystemID() -> Int32 {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return getpid() }
        let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "/").last.flatMap { Int32($0) } ?? getpid()
    }

    /// The kernel's name of the calling thread, from `/proc/thread-self/comm`.
    private static func currentKernelName() -> String {
        kernelLine("/proc/thread-self/comm") ?? ""
    }
}

/// The first line of a small kernel file (procfs, sysfs) without its newline; nil when it cannot be
/// read. Read with `open`/`read`: these files report a size of 0, and this runs on app threads.
func kernelLine(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = read(fd, &buffer, buffer.count)
    guard count > 0 else { return nil }
    var bytes = buffer.prefix(count)
    if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) { bytes = bytes[..<newline] }
    return String(decoding: bytes, as: UTF8.self)
}
