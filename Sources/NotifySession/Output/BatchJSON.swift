import Foundation
import NotifyWire
import NotifyModel
package import NotifyTUI

/// `--batch --json`: one JSON object per frame, one line each, for scripts and CI. Several views
/// (`--view names,threads,leaks`) make one object per frame with a key per view under `views`.
///
/// Why a real encoder: hand-built JSON breaks on the first name with a quote or a control
/// character (nvtop#438); `JSONEncoder` with sorted keys gives valid, stable, diffable lines.
/// The rows are what the chosen view lists after `--filter` and `--sort` (`ViewRows`), with raw
/// numbers (nanoseconds, counts) instead of the screen's rounded text.
package enum BatchJSON {
    /// One frame: where the session stands, and the view's rows.
    struct Frame: Encodable {
        var iteration: Int
        var view: String
        var stream: String
        var streamTimeNs: UInt64
        var filter: String?
        var summary: Summary
        var rows: Rows
        /// Threads view: per-thread totals beside the delivery rows.
        var threads: [ThreadItem]?
    }

    /// One frame of several views: where the session stands, and each view's rows by its name.
    struct MultiFrame: Encodable {
        var iteration: Int
        var stream: String
        var streamTimeNs: UInt64
        var filter: String?
        var summary: Summary
        var views: [String: Section]
    }

    /// One view's part of a ``MultiFrame``.
    struct Section: Encodable {
        var rows: Rows
        var threads: [ThreadItem]?
    }

    /// Any view's rows.
    struct Rows: Encodable {
        var value: any Encodable
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }

    /// A thread's totals since the start.
    struct ThreadItem: Encodable {
        var id: UInt64
        var name: String
        var systemId: Int32
        var isMain: Bool
        var deliveries: UInt64
        var posts: UInt64
        /// Time in handlers; `handlerNsSinceAttach` instead when the stream began late.
        var handlerNs: UInt64?
        var handlerNsSinceAttach: UInt64?
        /// Async messages run here: their mailbox wait (p99 and worst); absent when none ran.
        var mailboxWaitP99Ns: UInt64?
        var mailboxWaitMaxNs: UInt64?
    }

    /// The header's figures.
    struct Summary: Encodable {
        var events: UInt64
        var posts: UInt64
        var deliveries: UInt64
        var observers: Int
        var names: Int
        var threads: Int
        /// Open findings by severity (every severity present, zero when none).
        var warnings: [String: Int]
        /// Events the producer could not send (gap lines).
        var lost: UInt64
        /// Viewers the process streams to (this one included); absent when its producer does not say.
        var viewers: Int?
        /// Typed messages full sequence buffers dropped; absent while none was.
        var messagesDropped: UInt64?
        /// The labels of the centers the stream carries; absent for one center.
        var centers: [String]?
    }

    struct NameItem: Encodable {
        var name: String
        var observers: Int
        var posts: UInt64
        var deliveries: UInt64
        var postsWithNoObserver: UInt64
        /// Handler times; when the stream began late (it carried history) they cover only its
        /// events, and are named `…SinceAttach` instead.
        var avgHandlerNs: UInt64?
        var p99HandlerNs: UInt64?
        var maxHandlerNs: UInt64?
        var avgHandlerNsSinceAttach: UInt64?
        var p99HandlerNsSinceAttach: UInt64?
        var maxHandlerNsSinceAttach: UInt64?
        var handlingThreads: Int
        var lastPostAgeNs: UInt64?
        /// For a typed message's type: `"main"`, `"async"`, or `"unknown"` (seen only through
        /// sequences); absent for notification names.
        var message: String?
    }

    struct ObserverItem: Encodable {
        var id: UInt64
        var name: String?
        /// The label of its center; absent when the stream carries one center.
        var center: String?
        var kind: String
        var observer: String?
        var target: String
        var targetLabel: String?
        var deliveries: UInt64
        var state: String
        var token: String
        var ageNs: UInt64
        var site: String
        /// Typed messages only: the subject filter, and the mailbox or buffer depth and drops.
        var subject: String?
        var pendingMessages: Int?
        var maxPendingMessages: Int?
        var droppedMessages: UInt64?
    }

    struct DeliveryItem: Encodable {
        var timeNs: UInt64
        var thread: String
        var threadId: UInt64
        var name: String
        var registration: UInt64
        var post: UInt64
        var observerType: String?
        var durationNs: UInt64
        var waitNs: UInt64
        var depth: Int
        var postedOn: String
    }

    struct LeakItem: Encodable {
        var key: String
        var rule: String
        /// The notification name the finding is about, when it is about one.
        var name: String?
        var title: String
        var severity: String
        var open: Bool
        var summary: String
        var occurrences: UInt64
        /// The rule's own count (live registrations, checkpoints waited, posts unheard, …).
        var count: UInt64
        var ageNs: UInt64
        var site: String?
        /// What the row's findings share: rule, name, site and owner type.
        var signature: LeakSignature
        /// How many findings share the signature (the row shows the most pressing one).
        var signatureCount: Int
    }

    struct ActionItem: Encodable {
        /// Wall clock, nanoseconds since 1970 (UTC).
        var timeNs: UInt64
        var kind: String
        var text: String
    }

    struct EventItem: Encodable {
        var seq: UInt64
        var timeNs: UInt64
        var kind: String
        var thread: String
        var detail: String
    }

    /// The frame for `data` shown as `view`, as one line of JSON (no newline).
    package static func line(_ data: DashboardData, view: ViewState, iteration: Int) -> String {
        let section = section(data, view: view)
        return encode(
            Frame(
                iteration: iteration, view: name(of: view.view), stream: data.model.stream.description,
                streamTimeNs: streamOffset(data, data.model.now),
                filter: view.table.filter.isEmpty ? nil : view.table.filter, summary: summary(data),
                rows: section.rows, threads: section.threads))
    }

    /// One frame of several views as one line of JSON (no newline): `view` (with its filter and
    /// sort) first, then `more` as they open by default.
    package static func line(_ data: DashboardData, view: ViewState, more: [ViewID], iteration: Int) -> String {
        guard !more.isEmpty else { return line(data, view: view, iteration: iteration) }
        var sections = [name(of: view.view): section(data, view: view)]
        for other in more where other != view.view {
            var state = ViewState(view: other)
            state.theme = view.theme
            sections[name(of: other)] = section(data, view: state)
        }
        return encode(
            MultiFrame(
                iteration: iteration, stream: data.model.stream.description,
                streamTimeNs: streamOffset(data, data.model.now),
                filter: view.table.filter.isEmpty ? nil : view.table.filter, summary: summary(data),
                views: sections))
    }

    static func name(of view: ViewID) -> String { view.title.lowercased() }

    /// Stream time since the clock base `@t` counts from.
    static func streamOffset(_ data: DashboardData, _ time: UInt64) -> UInt64 {
        let base = data.status.clockBase ?? data.model.header?.clockMono ?? 0
        return time >= base ? time - base : 0
    }

    static func summary(_ data: DashboardData) -> Summary {
        let model = data.model
        let overview = model.overview
        var warnings: [String: Int] = [:]
        for severity in LeakSeverity.allCases { warnings[severity.description] = overview.openFindings[severity] ?? 0 }
        return Summary(
            events: model.totals.events, posts: model.totals.posts, deliveries: model.totals.deliveries,
            observers: model.liveRegistrations, names: overview.names, threads: overview.threads, warnings: warnings,
            lost: model.eventsLost, viewers: overview.viewers,
            messagesDropped: model.totals.messagesDropped > 0 ? model.totals.messagesDropped : nil,
            centers: model.centers)
    }

    /// The rows `view` lists, with raw numbers.
    static func section(_ data: DashboardData, view: ViewState) -> Section {
        let model = data.model
        let now = model.now
        func offset(_ time: UInt64) -> UInt64 { streamOffset(data, time) }
        func age(_ time: UInt64) -> UInt64 { now >= time ? now - time : 0 }
        switch ViewRows.ordered(data, view: view) {
        case .names(let rows):
            let late = model.beganLate
            return Section(
                rows: Rows(
                    value: rows.map { row in
                        NameItem(
                            name: row.name, observers: row.liveObservers, posts: row.posts, deliveries: row.deliveries,
                            postsWithNoObserver: row.postsWithNoObserver,
                            avgHandlerNs: late ? nil : row.averageHandlerTime,
                            p99HandlerNs: late ? nil : row.p99HandlerTime,
                            maxHandlerNs: late ? nil : row.maximumHandlerTime,
                            avgHandlerNsSinceAttach: late ? row.averageHandlerTime : nil,
                            p99HandlerNsSinceAttach: late ? row.p99HandlerTime : nil,
                            maxHandlerNsSinceAttach: late ? row.maximumHandlerTime : nil,
                            handlingThreads: row.handlingThreads.count, lastPostAgeNs: row.lastPostAt.map(age),
                            message: row.isMessage ? row.messageKind?.rawValue ?? "unknown" : nil)
                    }))
        case .observers(let rows):
            return Section(
                rows: Rows(
                    value: rows.map { row in
                        ObserverItem(
                            id: row.id, name: row.name, center: model.centerLabel(of: row), kind: row.kind.rawValue,
                            observer: row.observer?.description,
                            target: row.target.rawValue, targetLabel: row.targetLabel, deliveries: row.deliveries,
                            state: row.removal?.reason.rawValue ?? "live", token: row.tokenText,
                            ageNs: row.age(at: now), site: row.callsite.description,
                            subject: row.isMessage ? row.objectFilter?.description : nil,
                            pendingMessages: row.isMessage ? row.pendingMessages : nil,
                            maxPendingMessages: row.isMessage ? row.maximumPendingMessages : nil,
                            droppedMessages: row.isMessage ? row.droppedMessages : nil)
                    }))
        case .deliveries(let rows):
            let deliveries = rows.map { line in
                DeliveryItem(
                    timeNs: offset(line.entry.start), thread: line.thread, threadId: line.entry.deliveringThread,
                    name: line.entry.name, registration: line.entry.registration, post: line.entry.postID,
                    observerType: line.entry.observerType, durationNs: line.entry.duration,
                    waitNs: line.entry.wait, depth: line.entry.depth, postedOn: line.postedOn)
            }
            let threads = model.threads.map { thread in
                ThreadItem(
                    id: thread.id, name: thread.name, systemId: thread.systemID, isMain: thread.isMain,
                    deliveries: thread.deliveries, posts: thread.posts,
                    handlerNs: model.beganLate ? nil : thread.timeInHandlers,
                    handlerNsSinceAttach: model.beganLate ? thread.timeInHandlers : nil,
                    mailboxWaitP99Ns: thread.mailboxWait.count > 0 ? thread.mailboxWait.p99 : nil,
                    mailboxWaitMaxNs: thread.mailboxWait.count > 0 ? thread.mailboxWait.max : nil)
            }
            return Section(rows: Rows(value: deliveries), threads: threads)
        case .leaks(let rows):
            return Section(
                rows: Rows(
                    value: rows.map { group in
                        let finding = group.finding
                        return LeakItem(
                            key: finding.key.description, rule: finding.rule.code, name: finding.evidence.name,
                            title: finding.rule.title, severity: finding.severity.description, open: finding.isOpen,
                            summary: finding.summary, occurrences: group.occurrences, count: finding.evidence.count,
                            ageNs: age(finding.firstSeen), site: finding.evidence.callsite?.description,
                            signature: group.signature, signatureCount: group.count)
                    }))
        case .events(let rows):
            return Section(
                rows: Rows(
                    value: rows.map { line in
                        EventItem(
                            seq: line.event.seq ?? 0, timeNs: offset(line.event.timestamp ?? 0), kind: line.kind,
                            thread: line.thread, detail: line.detail)
                    }))
        case .actions(let entries):
            return Section(
                rows: Rows(value: entries.map { ActionItem(timeNs: $0.time, kind: $0.kind.rawValue, text: $0.text) }))
        }
    }

    /// Encodes a value as one line of JSON with sorted, snake_case keys.
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            // Only non-finite numbers can fail, and every field here is an integer or a string.
            return #"{"error":"cannot encode frame"}"#
        }
    }
}
