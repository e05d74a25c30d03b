package import NotifyModel
package import NotifySystem
package import NotifyTUI
import NotifyWire
import NotifyTraceViewer

/// The overview's collection and state (view 0): one live stream per inspectable process of a
/// host, each folded into its own ``InspectorState``, so a process's row shows the figures its own
/// views show. Owned by the run loop, like the session's model.
///
/// Cost: one connection, one reader thread and one bounded fold (its configuration's limits) per
/// process, at most ``limit`` processes; the host is listed once a second.
package final class ProcessOverview {
    /// One process: its stream and its fold.
    struct Entry {
        var process: InspectableProcess
        var feed: LiveFeed?
        var model: InspectorState
        var tail: EventTail
        var ended: String?
        /// The listing that first showed the process.
        var seenIn: Int
    }

    /// Where the processes are listed and opened.
    package let host: any InspectionHost
    /// The most processes followed at once; more are left out of the overview.
    package let limit: Int
    let configuration: InspectorConfiguration
    private(set) var entries: [Int32: Entry] = [:]
    /// The process the session's views show: the session folds its stream, not the overview.
    private(set) var attachedPid: Int32?
    private var nextListing: UInt64 = 0
    /// Listings made so far.
    private var listings = 0
    /// The listing during which the attached process's stream was seen to end.
    private var attachedEndedIn: Int?
    /// Why the last listing failed, if it did.
    package private(set) var listingFailure: String?

    package init(host: any InspectionHost, limit: Int = 64, configuration: InspectorConfiguration = .init()) {
        self.host = host
        self.limit = limit
        self.configuration = configuration
    }

    /// The pids followed, ascending.
    package var pids: [Int32] { entries.keys.sorted() }

    /// Lists the host once a second (opening new processes, dropping those that left) and folds
    /// what every stream but the attached one sent.
    package func poll(now: UInt64) {
        if now >= nextListing {
            refresh()
            nextListing = now + 1_000_000_000
        }
        for pid in entries.keys where pid != attachedPid {
            drain(pid)
        }
    }

    /// Lists the host now.
    package func refresh() {
        let listing: HostListing
        do {
            listing = try host.inspectableProcesses()
            listingFailure = nil
            listings += 1
        } catch {
            listingFailure = error.description
            return
        }
        let listed = Set(listing.processes.map(\.pid))
        for (pid, entry) in entries where !listed.contains(pid) {
            if pid != attachedPid { entry.feed?.stop() }  // the session stops the attached one
            entries[pid] = nil
        }
        for process in listing.processes {
            if entries[process.pid] != nil {
                entries[process.pid]?.process = process
                if entries[process.pid]?.feed == nil { open(process.pid) }
            } else if entries.count < limit {
                entries[process.pid] = Entry(
                    process: process, model: InspectorState(configuration: configuration), tail: EventTail(),
                    seenIn: listings)
                open(process.pid)
            }
        }
    }

    private func open(_ pid: Int32) {
        guard let process = entries[pid]?.process else { return }
        do {
            entries[pid]?.feed = LiveFeed(reader: try host.open(process))
            entries[pid]?.ended = nil
        } catch {
            entries[pid]?.ended = error.description
        }
    }

    private func drain(_ pid: Int32) {
        guard var entry = entries[pid], let feed = entry.feed else { return }
        entries[pid] = nil  // the fold below mutates the only copy
        let (end, _) = feed.drain { batches in
            for batch in batches {
                entry.tail.append(contentsOf: batch)
                for event in batch { entry.model.apply(event) }
            }
        }
        if let end, entry.ended == nil {
            entry.ended = end.description
            entry.model.setStream(.ended(end.description))
        }
        entries[pid] = entry
    }

    /// Hands a process's stream and fold to the session; nil when it is not followed or has no stream.
    func take(_ pid: Int32) -> Entry? {
        guard let entry = entries[pid], entry.feed != nil else { return nil }
        attachedPid = pid
        attachedEndedIn = nil
        return entry
    }

    /// Takes back the attached process's fold from the session (it goes on folding it here).
    func giveBack(model: InspectorState, tail: EventTail, ended: String?) {
        guard let pid = attachedPid else { return }
        attachedPid = nil
        entries[pid]?.model = model
        entries[pid]?.tail = tail
        entries[pid]?.ended = ended
    }

    /// Whether `pid` is still followed.
    func follows(_ pid: Int32) -> Bool { entries[pid] != nil }

    /// The attached process's restart: a live process called `name` that appeared after the
    /// attached stream ended (processes of the same name that ran alongside it are not restarts).
    func restart(of name: String) -> Int32? {
        if attachedEndedIn == nil { attachedEndedIn = listings }
        let ended = attachedEndedIn ?? listings
        return entries.values.filter {
            $0.process.name == name && $0.seenIn > ended && $0.ended == nil && $0.feed != nil
        }.max { $0.seenIn < $1.seenIn }?.process.pid
    }

    /// One row per process, ascending by pid; the attached one from the session's own fold.
    package func rows(attached model: InspectorState, ended: String?) -> [OverviewRow] {
        pids.compactMap { pid in
            guard let entry = entries[pid] else { return nil }
            let isAttached = pid == attachedPid
            let fold = isAttached ? model : entry.model
            return OverviewRow(
                pid: pid, name: entry.process.name, center: fold.header?.center ?? "",
                uptimeSeconds: entry.process.uptimeSeconds, summary: fold.overview,
                ended: isAttached ? ended : entry.ended, isAttached: isAttached)
        }
    }

    /// Stops every stream.
    package func stop() {
        for entry in entries.values { entry.feed?.stop() }
    }
}
