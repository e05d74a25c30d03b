package import NotifyModel
package import NotifyWire

/// The registration set marked with `b`: which registrations were live then, so Names and
/// Observers can show what came and went since (Redux DevTools' commit, `leaks -diffFrom`).
package struct RegistrationMark: Sendable, Hashable {
    /// The registrations live at the mark, each with the name it observes (`*` for all names).
    package var live: [UInt64: String]
    /// The process whose registration ids these are (its stream's header); nil when the stream
    /// had not said yet.
    package var process: Process?

    /// A process as its stream's header names it: registration ids are its own.
    package struct Process: Sendable, Hashable, CustomStringConvertible {
        package var pid: Int32
        package var name: String
        package var center: String

        package init(_ header: TraceHeader) {
            pid = header.pid
            name = header.process
            center = header.center
        }

        /// `pid 4242 (ShopDemo)`.
        package var description: String { "pid \(pid) (\(name))" }
    }

    /// The live registrations of `model` now.
    package init(_ model: InspectorState) {
        var live: [UInt64: String] = [:]
        for row in model.registrations where row.isLive { live[row.id] = row.displayName }
        self.live = live
        process = model.header.map(Process.init)
    }

    /// Whether the mark's registration ids cannot be compared with those of `header`'s stream:
    /// it was taken in another process, which numbers its registrations afresh.
    package func isOfAnotherProcess(than header: TraceHeader) -> Bool {
        process.map { $0 != Process(header) } ?? false
    }

    /// Per name: registrations live now that were not at the mark (`added`), and registrations
    /// live at the mark that no longer are (`removed`, forgotten ones included). Names with
    /// neither are absent.
    package func changes(_ model: InspectorState) -> [String: (added: Int, removed: Int)] {
        var changes: [String: (added: Int, removed: Int)] = [:]
        var stillLive: Set<UInt64> = []
        for row in model.registrations where row.isLive {
            if live[row.id] == nil {
                changes[row.displayName, default: (0, 0)].added += 1
            } else {
                stillLive.insert(row.id)
            }
        }
        for (id, name) in live where !stillLive.contains(id) {
            changes[name, default: (0, 0)].removed += 1
        }
        return changes
    }

    /// `+` for a registration live now but not at the mark, `−` (`-` in ASCII) for one live then
    /// and not now, empty otherwise.
    package func marker(_ row: ObserverRow, ascii: Bool) -> String {
        if row.isLive { return live[row.id] == nil ? "+" : "" }
        return live[row.id] == nil ? "" : (ascii ? "-" : "−")
    }

    /// `+2/−1`; empty when nothing changed.
    static func text(_ change: (added: Int, removed: Int)?, ascii: Bool) -> String {
        guard let change, change.added > 0 || change.removed > 0 else { return "" }
        return "+\(change.added)/\(ascii ? "-" : "−")\(change.removed)"
    }
}
