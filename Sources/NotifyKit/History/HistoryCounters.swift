import CNotifyTicks
import Synchronization

/// One thread's unwatched counters for one center: posts, deliveries and unheard posts per name,
/// indexed by the name's counter index in that center (see ``CenterHistory``).
///
/// Only the owning thread writes, with a plain load and a relaxed store (no read-modify-write, no
/// lock); ``CenterHistory`` reads every thread's counters with relaxed loads. Counters live in pages
/// of ``namesPerPage`` names, made when the thread first counts a name of the page.
final class HistoryCounters: @unchecked Sendable {  // written by one thread; read through C atomics
    static let namesPerPage = 64
    static let pageCount = 64
    /// Counter indices a center hands out; index 0 stands for every name beyond them.
    static let capacity = namesPerPage * pageCount
    /// Posts, deliveries, unheard posts.
    private static let fields = 3

    let thread: UInt64
    /// The thread as it was when it began counting: its name once it has exited.
    let threadAtStart: NotifyThread?
    /// ``NotifyCenter/serial`` of the center counted.
    let center: UInt64
    private let pages: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// Set when the thread exits: the center folds the counts into its retired totals.
    let closed = Atomic<Bool>(false)
    /// Set when the center goes away: the thread lets these counters go at its next lookup.
    let abandoned = Atomic<Bool>(false)

    init(thread: UInt64, center: UInt64) {
        self.thread = thread
        self.threadAtStart = NotifyThread.lookup(thread)
        self.center = center
        pages = .allocate(capacity: Self.pageCount)
        pages.initialize(repeating: nil, count: Self.pageCount)
    }

    deinit {
        for index in 0..<Self.pageCount {
            pages[index]?.deallocate()
        }
        pages.deallocate()
    }

    /// Adds one post of the name at `index`, with the deliveries it made on this thread; a post
    /// that reached no registration is also unheard. Called on the owning thread only.
    @inline(__always)
    func countPost(index: UInt32, deliveries: UInt64, reached: Bool) {
        let counters = self.counters(at: index)
        notify_counter_store(counters, counters.pointee &+ 1)
        if reached {
            if deliveries != 0 { notify_counter_store(counters + 1, counters[1] &+ deliveries) }
        } else {
            notify_counter_store(counters + 2, counters[2] &+ 1)
        }
    }

    /// Adds one delivery of the name at `index`, made on this thread for a post of another (a
    /// hand-off). Called on the owning thread only.
    @inline(__always)
    func countDelivery(index: UInt32) {
        let counters = self.counters(at: index)
        notify_counter_store(counters + 1, counters[1] &+ 1)
    }

    @inline(__always)
    private func counters(at index: UInt32) -> UnsafeMutablePointer<UInt64> {
        let page = Int(index) / Self.namesPerPage
        // The owner made every page it reads here: a plain load is its own store.
        guard let base = pages[page] else { return makePage(page, index: index) }
        return base.assumingMemoryBound(to: UInt64.self) + (Int(index) % Self.namesPerPage) * Self.fields
    }

    @inline(never)
    private func makePage(_ page: Int, index: UInt32) -> UnsafeMutablePointer<UInt64> {
        let count = Self.namesPerPage * Self.fields
        let base = UnsafeMutableRawPointer.allocate(byteCount: count * 8, alignment: 64)
        base.initializeMemory(as: UInt64.self, repeating: 0, count: count)
        notify_page_publish(pages + page, base)
        return base.assumingMemoryBound(to: UInt64.self) + (Int(index) % Self.namesPerPage) * Self.fields
    }

    /// Calls `body` with every name index this thread counted something for, and its counts;
    /// safe on any thread while the owner keeps counting.
    func forEachCount(_ body: (_ index: UInt32, _ counts: HistoryCounts) -> Void) {
        for page in 0..<Self.pageCount {
            guard let raw = notify_page_load(pages + page) else { continue }
            let base = raw.assumingMemoryBound(to: UInt64.self)
            for offset in 0..<Self.namesPerPage {
                let counters = base + offset * Self.fields
                let counts = HistoryCounts(
                    posts: notify_counter_load(counters), deliveries: notify_counter_load(counters + 1),
                    unheard: notify_counter_load(counters + 2))
                if !counts.isZero { body(UInt32(page * Self.namesPerPage + offset), counts) }
            }
        }
    }
}

/// Posts, deliveries and unheard posts of one (thread, name) pair.
package struct HistoryCounts: Sendable, Hashable {
    package var posts: UInt64 = 0
    package var deliveries: UInt64 = 0
    /// Posts that reached no registration.
    package var unheard: UInt64 = 0

    package init(posts: UInt64 = 0, deliveries: UInt64 = 0, unheard: UInt64 = 0) {
        self.posts = posts
        self.deliveries = deliveries
        self.unheard = unheard
    }

    package var isZero: Bool { posts == 0 && deliveries == 0 && unheard == 0 }

    package static func + (lhs: HistoryCounts, rhs: HistoryCounts) -> HistoryCounts {
        HistoryCounts(
            posts: lhs.posts &+ rhs.posts, deliveries: lhs.deliveries &+ rhs.deliveries,
            unheard: lhs.unheard &+ rhs.unheard)
    }

    package static func += (lhs: inout HistoryCounts, rhs: HistoryCounts) { lhs = lhs + rhs }

    /// What `self` has beyond `earlier`, an earlier reading of the same counters.
    package func since(_ earlier: HistoryCounts) -> HistoryCounts {
        HistoryCounts(
            posts: posts &- earlier.posts, deliveries: deliveries &- earlier.deliveries,
            unheard: unheard &- earlier.unheard)
    }
}
