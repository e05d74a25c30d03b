import Foundation
import NotifyEvents
import NotifyModel
import NotifyTUI

/// `--batch --json`: one JSON object per frame, one line each, for scripts and CI.
///
/// Why a real encoder: hand-built JSON breaks on the first name with a quote or a control
/// character (nvtop#438); `JSONEncoder` with sorted keys gives valid, stable, diffable lines.
/// The rows are what the chosen view lists after `--filter` and `--sort` (``ViewRows``), with raw
/// numbers (nanoseconds, counts) instead of the screen's rounded text.
public enum BatchJSON {
    /// One frame: where the session stands, and the view's rows.
    struct Frame<Row: Encodable>: Encodable {
        var iteration: Int
        var view: String
        var stream: String
        var streamTimeNs: UInt64
        var filter: String?
        var summary: Summary
        var rows: [Row]
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
    }

    struct NameItem: Encodable {
        var name: String
        var observers: Int
        var posts: UInt64
        var deliveries: UInt64
        var postsWithNoObserver: UInt64
        var avgHandlerNs: UInt64
        var p99HandlerNs: UInt64
        var maxHandlerNs: UInt64
        var handlingThreads: Int
        var lastPostAgeNs: UInt64?
    }

    struct ObserverItem: Encodable {
        var id: UInt64
        var name: String?
        var kind: String
        var observer: String?
        var target: String
        var targetLabel: String?
        var deliveries: UInt64
        var state: String
        var token: String
        var ageNs: UInt64
        var site: String
    }

    struct DeliveryItem: Encodable {
        var timeNs: UInt64
        var thread: String
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
        var title: String
        var severity: String
        var open: Bool
        var summary: String
        var occurrences: UInt64
        var ageNs: UInt64
        var site: String?
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
    public static func line(_ data: DashboardData, view: ViewState, iteration: Int) -> String {
        let model = data.model
        let overview = model.overview
        var warnings: [String: Int] = [:]
        for severity in LeakSeverity.allCases { warnings[severity.description] = overview.openFindings[severity] ?? 0 }
        let summary = Summary(
            events: model.totals.events, posts: model.totals.posts, deliveries: model.totals.deliveries,
            observers: model.liveRegistrations, names: overview.names, threads: overview.threads, warnings: warnings,
            lost: model.eventsLost)
        let base = data.status.clockBase ?? model.header?.clockMono ?? 0
        let now = model.now
        func offset(_ time: UInt64) -> UInt64 { time >= base ? time - base : 0 }
        func age(_ time: UInt64) -> UInt64 { now >= time ? now - time : 0 }
        func frame<Row: Encodable>(_ rows: [Row]) -> String {
            encode(Frame(iteration: iteration, view: view.view.title.lowercased(), stream: model.stream.description,
                         streamTimeNs: offset(now), filter: view.table.filter.isEmpty ? nil : view.table.filter,
                         summary: summary, rows: rows))
        }
        switch ViewRows.ordered(data, view: view) {
        case .names(let rows):
            return frame(rows.map { row in
                NameItem(name: row.name, observers: row.liveObservers, posts: row.posts, deliveries: row.deliveries,
                         postsWithNoObserver: row.postsWithNoObserver, avgHandlerNs: row.averageHandlerTime,
                         p99HandlerNs: row.p99HandlerTime, maxHandlerNs: row.maximumHandlerTime,
                         handlingThreads: row.handlingThreads.count, lastPostAgeNs: row.lastPostAt.map(age))
            })
        case .observers(let rows):
            return frame(rows.map { row in
                ObserverItem(id: row.id, name: row.name, kind: row.kind.rawValue, observer: row.observer?.description,
                             target: row.target.rawValue, targetLabel: row.targetLabel, deliveries: row.deliveries,
                             state: row.removal?.reason.rawValue ?? "live", token: row.token.description,
                             ageNs: row.age(at: now), site: row.callsite.description)
            })
        case .deliveries(let rows):
            return frame(rows.map { line in
                DeliveryItem(timeNs: offset(line.entry.start), thread: line.thread, name: line.entry.name,
                             registration: line.entry.registration, post: line.entry.postID,
                             observerType: line.entry.observerType, durationNs: line.entry.duration,
                             waitNs: line.entry.wait, depth: line.entry.depth, postedOn: line.postedOn)
            })
        case .leaks(let rows):
            return frame(rows.map { finding in
                LeakItem(key: finding.key.description, rule: finding.rule.code, title: finding.rule.title,
                         severity: finding.severity.description, open: finding.isOpen, summary: finding.summary,
                         occurrences: finding.occurrences, ageNs: age(finding.firstSeen),
                         site: finding.evidence.callsite?.description)
            })
        case .events(let rows):
            return frame(rows.map { line in
                EventItem(seq: line.event.seq ?? 0, timeNs: offset(line.event.timestamp ?? 0), kind: line.kind,
                          thread: line.thread, detail: line.detail)
            })
        case .actions(let entries):
            return frame(entries.map { ActionItem(timeNs: $0.time, kind: $0.kind.rawValue, text: $0.text) })
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
