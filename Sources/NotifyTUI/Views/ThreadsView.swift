import NotifyWire
import NotifyModel

/// View 3: on which threads handlers ran. Merged: one log with a thread column. Lanes: one column
/// per thread, side by side, busiest first. Logs follow the newest line unless you scroll up.
enum ThreadsView {
    /// A delivery log entry with a unique row key.
    struct Entry: Sendable {
        var entry: DeliveryLogEntry
        var thread: String
        var poster: String
        /// What the OBSERVER column says for a closure: `block in File.swift`.
        var block = "block"
    }

    static func logSpec(_ data: DashboardData, showThread: Bool, ascii: Bool) -> TableSpec<Entry> {
        let offset: @Sendable (UInt64) -> UInt64 = { [base = data.model.header?.clockMono ?? 0] in
            $0 >= base ? $0 - base : 0
        }
        var columns: [TableColumn<Entry>] = [
            TableColumn(
                "TIME", .fixed(10), alignRight: true, text: { Format.streamTime(offset($0.entry.start)) },
                value: { .number(Double(offset($0.entry.start))) })
        ]
        if showThread {
            // Flexible: thread names are queue labels and app names, wider than the kernel's 15 bytes.
            columns.append(TableColumn("THREAD", .flexible(min: 12), text: { $0.thread }))
        }
        var observer = TableColumn<Entry>(
            "OBSERVER", .flexible(min: 10),
            text: { (item: Entry) -> String in
                item.entry.registrationKind.flatMap(MessageText.kind)
                    ?? item.entry.observerType.map(ObserversView.shortType) ?? item.block
            })
        observer.identifies(ideal: 24, .end)
        columns += [
            TableColumn("NAME", .flexible(min: 14), text: { $0.entry.name }),
            observer,
            TableColumn(
                "DUR", .fixed(6), alignRight: true, text: { Format.duration($0.entry.duration, ascii: ascii) },
                style: { $0.entry.duration >= 16_000_000 ? .warning : nil },
                value: { .number(Double($0.entry.duration)) }),
            TableColumn(
                "WAIT", .fixed(6), alignRight: true, text: { Format.duration($0.entry.wait, ascii: ascii) },
                value: { .number(Double($0.entry.wait)) }),
            TableColumn(
                "D", .fixed(2), alignRight: true, text: { "\($0.entry.depth)" },
                style: { $0.entry.depth > 1 ? .info : nil }, value: { .number(Double($0.entry.depth)) }),
            TableColumn("POSTED ON", .flexible(min: 12), text: { $0.poster }),
        ]
        var spec = TableSpec(
            columns: columns, key: { .delivery(registration: $0.entry.registration, post: $0.entry.postID) },
            isLog: true,
            emptyMessage: data.status.probesCount
                ? "the probes count in the kernel: single deliveries wait for event mode (P)" : "no deliveries yet")
        spec.time = { $0.entry.start }
        return spec
    }

    /// Entries of the given threads (all when nil), optionally of one registration, oldest first.
    static func entries(_ data: DashboardData, threads: [UInt64]?, registration: UInt64? = nil) -> [Entry] {
        let rows = threads.map { $0.compactMap { data.model.thread($0) } } ?? data.model.threads
        var merged: [Entry] = []
        var blocks: [UInt64: String] = [:]
        for row in rows {
            let name = data.threadName(row.id)
            for entry in row.recentDeliveries where registration == nil || entry.registration == registration {
                var item = Entry(entry: entry, thread: name, poster: data.threadName(entry.postingThread))
                if entry.observerType == nil {
                    // Once per registration: a log holds many deliveries of the same few blocks.
                    if blocks[entry.registration] == nil {
                        let file = data.model.registration(entry.registration)?.callsite.file ?? ""
                        blocks[entry.registration] = ObserversView.closureText("block", file: file)
                    }
                    item.block = blocks[entry.registration] ?? "block"
                }
                merged.append(item)
            }
        }
        if rows.count > 1 { merged.sort { ($0.entry.start, $0.entry.postID) < ($1.entry.start, $1.entry.postID) } }
        return merged
    }

    /// A log of some threads' deliveries (or of one registration's).
    static func drawLog(
        _ data: DashboardData, threads: [UInt64]?, registration: UInt64? = nil, state: TableState, rect: Rect,
        glyphs: Glyphs, extras: TableExtras = TableExtras(), into canvas: inout Canvas
    ) -> FrameInfo {
        let showThread = threads.map { $0.count != 1 } ?? true
        let kept = entries(data, threads: threads, registration: registration)
        let note = keptNote(data, threads: threads, registration: registration, kept: kept.count)
        var spec = logSpec(data, showThread: showThread, ascii: glyphs == .ascii)
        // Deliveries happened, and the logs no longer hold any: "none yet" would be untrue.
        if kept.isEmpty, note != nil, let total = foldedDeliveries(data, threads: threads, registration: registration) {
            spec.emptyMessage =
                "its \(Format.count(total)) deliveries are no longer in the threads' logs "
                + "(a thread's log keeps \(data.model.configuration.threadLogCapacity))"
        }
        var info = TableWidget.render(
            kept, spec: spec, state: state, into: &canvas, rect: rect, glyphs: glyphs, extras: extras)
        info.omitted = note
        return info
    }

    /// `showing the newest 80 of 552 deliveries (a thread's log keeps 128)` when the threads' logs
    /// no longer hold every delivery the log would list; nil when they do.
    static func keptNote(_ data: DashboardData, threads: [UInt64]?, registration: UInt64?, kept: Int) -> String? {
        guard let total = foldedDeliveries(data, threads: threads, registration: registration),
            total > UInt64(kept)
        else { return nil }
        return "showing the newest \(Format.count(UInt64(kept))) of \(Format.count(total)) deliveries "
            + "(a thread's log keeps \(data.model.configuration.threadLogCapacity))"
    }

    /// The deliveries the log would list were every one kept: a registration's, or the threads'
    /// when their logs dropped some; nil when none were dropped.
    private static func foldedDeliveries(_ data: DashboardData, threads: [UInt64]?, registration: UInt64?) -> UInt64? {
        if let registration { return data.model.registration(registration)?.deliveries ?? 0 }
        let rows = threads.map { $0.compactMap { data.model.thread($0) } } ?? data.model.threads
        guard rows.contains(where: { $0.droppedLogEntries > 0 }) else { return nil }
        return rows.reduce(0) { $0 + $1.deliveries }
    }

    static func draw(
        _ data: DashboardData, layout: ThreadLayout, state: TableState, rect: Rect, glyphs: Glyphs,
        extras: TableExtras = TableExtras(), into canvas: inout Canvas
    ) -> FrameInfo {
        switch layout {
        case .merged:
            drawLog(data, threads: nil, state: state, rect: rect, glyphs: glyphs, extras: extras, into: &canvas)
        case .lanes: drawLanes(data, state: state, rect: rect, glyphs: glyphs, extras: extras, into: &canvas)
        }
    }

    /// One framed lane per thread, busiest first; ↑/↓ pick a lane and Enter opens its log.
    static func drawLanes(
        _ data: DashboardData, state: TableState, rect: Rect, glyphs: Glyphs, extras: TableExtras = TableExtras(),
        into canvas: inout Canvas
    ) -> FrameInfo {
        // The filter applies to the deliveries as in the merged log (same fields); a lane with no
        // matching delivery is left out.
        let spec = logSpec(data, showThread: true, ascii: glyphs == .ascii)
        let query = state.filter.isEmpty ? nil : spec.query(state.filter)
        var deliveries: [UInt64: [DeliveryLogEntry]] = [:]
        var threads = data.model.threads.sorted { ($0.deliveries, $1.id) > ($1.deliveries, $0.id) }
        if let query {
            threads = threads.filter { thread in
                let name = data.threadName(thread.id)
                let kept = thread.recentDeliveries.filter { entry in
                    spec.matches(query, Entry(entry: entry, thread: name, poster: data.threadName(entry.postingThread)))
                }
                deliveries[thread.id] = kept
                return !kept.isEmpty
            }
        }
        let laneWidth = 28
        let fits = max(1, rect.width / laneWidth)
        let keys = threads.map { RowKey.thread($0.id) }
        var selected =
            state.selectedKey.flatMap { keys.firstIndex(of: $0) } ?? min(state.selectedIndex, max(0, keys.count - 1))
        selected = max(0, selected)
        let first = selected >= fits ? selected - fits + 1 : 0
        var info = FrameInfo(rowKeys: keys, pageSize: fits, selectedIndex: selected, scroll: first)
        info.fields = spec.fields
        guard !threads.isEmpty else {
            let message = query == nil ? "no threads yet" : "no delivery matches the filter \"\(state.filter)\""
            canvas.write(message, x: rect.x + 2, y: rect.y + 1, maxWidth: max(0, rect.width - 2), style: .dim)
            return info
        }
        let shown = Array(threads[first..<min(threads.count, first + fits)])
        if shown.count < threads.count {
            let keys = glyphs == .ascii ? "Up/Down" : "↑↓"
            info.omitted = "\(threads.count - shown.count) of \(threads.count) threads hidden: \(keys) scroll, t merges"
        }
        let width = rect.width / shown.count
        for (index, thread) in shown.enumerated() {
            let lane = Rect(x: rect.x + index * width, y: rect.y, width: width, height: rect.height)
            let isSelected = first + index == selected
            info.regions.append(HitRegion(lane, .row(first + index)))
            var title = "\(data.threadName(thread.id)) \(Format.count(thread.deliveries))"
            if thread.mailboxWait.count > 0 {
                // Async message observers ran here: how long their messages waited, at worst.
                title += " wait p99 " + Format.duration(thread.mailboxWait.p99, ascii: glyphs == .ascii)
            }
            Frame.draw(lane, title: title, glyphs: glyphs, style: isSelected ? .breadcrumb : .dim, into: &canvas)
            let inner = lane.inset(1)
            let (log, hidden) = laneLines(
                deliveries[thread.id] ?? thread.recentDeliveries, extras: extras, height: inner.height)
            info.hiddenRows += hidden
            for (row, line) in log.enumerated() {
                guard case .entry(let entry) = line else {
                    if case .mark(let mark) = line {
                        canvas.write(
                            TableWidget.separator(mark, width: inner.width, glyphs: glyphs), x: inner.x,
                            y: inner.y + row, width: inner.width, style: .info, ellipsis: glyphs.ellipsis)
                    }
                    continue
                }
                let duration = Format.duration(entry.duration, ascii: glyphs == .ascii)
                let durationWidth = DisplayWidth.of(duration)
                canvas.write(
                    entry.name, x: inner.x, y: inner.y + row, width: max(0, inner.width - durationWidth - 1),
                    style: .normal, ellipsis: glyphs.ellipsis)
                canvas.write(
                    duration, x: inner.x + inner.width - durationWidth, y: inner.y + row,
                    style: entry.duration >= 16_000_000 ? .warning : .dim)
            }
        }
        return info
    }
}
