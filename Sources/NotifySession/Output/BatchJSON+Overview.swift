import NotifyModel
import NotifyTUI

extension BatchJSON {
    /// One process of the overview, with raw numbers.
    struct ProcessItem: Encodable {
        var pid: Int32
        var process: String
        var center: String
        var uptimeSeconds: Double?
        // The fold's figures; absent while a process attached on request is not (nothing counted).
        var postsPerSecond: Double?
        var deliveriesPerSecond: Double?
        var posts: UInt64?
        var deliveries: UInt64?
        var events: UInt64?
        var observers: Int?
        var warnings: [String: Int]?
        var lost: UInt64?
        /// Viewers the process streams to (this one included); nil when its producer does not say.
        var viewers: Int?
        var ended: String?
        /// Undecodable lines its stream sent, skipped; absent when none.
        var skippedLines: Int?
        var attached: Bool
        /// Threads of the process: the system's count before it is attached, the fold's after.
        var threads: Int?
        /// What a process attached on request says before it is (`--foundation`'s overview).
        var notAttached: String?
    }

    struct OverviewFrame: Encodable {
        var iteration: Int
        var view: String
        var filter: String?
        var processes: [ProcessItem]
        /// Processes listed but not followed, and why; absent when none.
        var notShown: NotShown?
    }

    struct NotShown: Encodable {
        var count: Int
        /// Why: `limit` (the overview follows at most ``limit`` processes).
        var reason: String
        var limit: Int
    }

    /// The overview (view 0) as one line of JSON (no newline): its rows after filter and sort.
    static func overviewLine(_ data: DashboardData, view: ViewState, iteration: Int) -> String {
        let rows = OverviewView.ordered(data.overview ?? [], state: view.table)
        let items = rows.map { row in
            var warnings: [String: Int] = [:]
            for severity in LeakSeverity.allCases { warnings[severity.description] = row.warnings(severity) }
            let counted = row.notAttached == nil
            return ProcessItem(
                pid: row.pid, process: row.name, center: row.center,
                uptimeSeconds: row.uptimeSeconds.map { ($0 * 10).rounded() / 10 },
                postsPerSecond: counted ? row.summary.postsPerSecond : nil,
                deliveriesPerSecond: counted ? row.summary.deliveriesPerSecond : nil,
                posts: counted ? row.summary.totals.posts : nil,
                deliveries: counted ? row.summary.totals.deliveries : nil,
                events: counted ? row.summary.totals.events : nil,
                observers: counted ? row.summary.liveRegistrations : nil, warnings: counted ? warnings : nil,
                lost: counted ? row.summary.eventsLost : nil, viewers: row.summary.viewers, ended: row.ended,
                skippedLines: row.skippedLines > 0 ? row.skippedLines : nil, attached: row.isAttached,
                threads: row.threads, notAttached: row.notAttached)
        }
        return encode(
            OverviewFrame(
                iteration: iteration, view: "processes", filter: view.table.filter.isEmpty ? nil : view.table.filter,
                processes: items,
                notShown: data.overviewNotShown > 0
                    ? NotShown(count: data.overviewNotShown, reason: "limit", limit: data.overviewLimit) : nil))
    }
}
