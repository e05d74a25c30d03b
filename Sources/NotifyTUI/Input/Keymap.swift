/// Where a binding applies.
package enum KeyContext: String, Sendable, Hashable, CaseIterable {
    /// Everywhere.
    case global = "General"
    /// Moving in tables and logs.
    case navigation = "Moving"
    /// Tables: filter, sort, drill-down.
    case table = "Tables"
    /// Logs: marks, clear, wrapping (views 3, 5, 6).
    case log = "Logs"
    /// Live sessions.
    case live = "Live"
    /// Replays only.
    case replay = "Replay"
}

/// One row of the key table: keys, what they do, and how help and the footer describe it.
package struct KeyBinding: Sendable, Hashable {
    /// Every key that triggers the action; the first is the one the footer shows.
    package var keys: [Key]
    /// What happens.
    package var action: Action
    /// A short label for the footer ("Sort").
    package var label: String
    /// One line for the help overlay.
    package var help: String
    /// Where it applies.
    package var context: KeyContext
    /// Position in the footer bar, if it appears there.
    package var footerOrder: Int?

    /// Creates a binding.
    package init(
        _ keys: [Key], _ action: Action, label: String, help: String, context: KeyContext, footer: Int? = nil
    ) {
        self.keys = keys
        self.action = action
        self.label = label
        self.help = help
        self.context = context
        self.footerOrder = footer
    }
}

/// The one key table: it dispatches keys, and the footer bar, the help overlay and
/// `--help-keys` are generated from it, so they cannot disagree (lazygit's approach).
package struct Keymap: Sendable {
    /// Every binding, in help order.
    package var bindings: [KeyBinding]
    private var index: [Key: Int] = [:]
    private var replayIndex: [Key: Int] = [:]

    /// Builds a keymap; a key bound twice keeps its first binding, except that a replay binding
    /// wins in replays over a binding for every session (`g` is Top live, go-to-time in replays).
    package init(bindings: [KeyBinding]) {
        self.bindings = bindings
        for (position, binding) in bindings.enumerated() {
            for key in binding.keys {
                if binding.context == .replay {
                    if replayIndex[key] == nil { replayIndex[key] = position }
                } else if index[key] == nil {
                    index[key] = position
                }
            }
        }
    }

    /// The action for a key; nil when the key is unbound, or bound only for replays and
    /// `isReplay` is false (or only for live sessions and it is true).
    package func action(for key: Key, isReplay: Bool = false) -> Action? {
        if isReplay, let position = replayIndex[key] { return bindings[position].action }
        guard let position = index[key] else { return nil }
        let binding = bindings[position]
        if binding.context == .replay && !isReplay { return nil }
        if binding.context == .live && isReplay { return nil }
        return binding.action
    }

    /// Whether a binding works in a live session (`isReplay` false) or a replay.
    package func applies(_ binding: KeyBinding, isReplay: Bool) -> Bool {
        (binding.context != .replay || isReplay) && (binding.context != .live || !isReplay)
    }

    /// The bindings shown in the footer, in order, for a live session or a replay.
    package func footer(isReplay: Bool) -> [KeyBinding] {
        bindings.filter { binding in
            binding.footerOrder != nil && (binding.context != .replay || isReplay)
                && (binding.context != .live || !isReplay)
        }.sorted { $0.footerOrder! < $1.footerOrder! }
    }

    /// The help text: one section per context, one line per binding (`q F10 ^C  Quit notifytop`).
    package func helpLines(isReplay: Bool? = nil) -> [String] {
        var lines: [String] = []
        for context in KeyContext.allCases {
            if let isReplay, context == .replay && !isReplay || context == .live && isReplay { continue }
            let section = bindings.filter { $0.context == context }
            guard !section.isEmpty else { continue }
            if !lines.isEmpty { lines.append("") }
            lines.append(context.rawValue)
            for binding in section {
                let keys = binding.keys.map(\.description).joined(separator: " ")
                lines.append("  " + DisplayWidth.fit(keys, to: 16) + " " + binding.help)
            }
        }
        return lines
    }

    /// notifytop's keys.
    package static let standard = Keymap(bindings: [
        KeyBinding(
            [.function(1), .char("?"), .char("h")], .toggleHelp, label: "Help",
            help: "show or hide this help", context: .global, footer: 1),
        KeyBinding(
            [.function(10), .char("q"), .control("c")], .quit, label: "Quit",
            help: "quit (the terminal is restored)", context: .global, footer: 10),
        KeyBinding(
            [.char("0")], .showOverview, label: "Processes",
            help: "view 0: every inspectable process (Enter attaches)",
            context: .global),
        KeyBinding([.char("1")], .show(.names), label: "Names", help: "view 1: notification names", context: .global),
        KeyBinding(
            [.char("2")], .show(.observers), label: "Observers",
            help: "view 2: every registration (ended ones stay ~1 min; /state=live hides them)", context: .global),
        KeyBinding(
            [.char("3")], .show(.threads), label: "Threads",
            help: "view 3: deliveries per thread", context: .global),
        KeyBinding([.char("4")], .show(.leaks), label: "Leaks", help: "view 4: leak warnings", context: .global),
        KeyBinding([.char("5")], .show(.events), label: "Events", help: "view 5: raw event tail", context: .global),
        KeyBinding(
            [.char("6"), .char("@")], .show(.log), label: "Log",
            help: "view 6: what notifytop did (attach, losses, recordings, saves)", context: .global),
        KeyBinding([.tab], .nextView, label: "Next", help: "next view", context: .global),
        KeyBinding([.backTab], .previousView, label: "Prev", help: "previous view", context: .global),
        KeyBinding(
            [.char("+"), .char("=")], .faster, label: "Faster", help: "redraw more often (delay ÷2)",
            context: .global),
        KeyBinding([.char("-")], .slower, label: "Slower", help: "redraw less often (delay ×2)", context: .global),
        KeyBinding(
            [.char(":")], .openPalette, label: "Cmd",
            help: "command palette (Tab completes, Esc cancels)", context: .global),
        KeyBinding(
            [.char("e")], .toggleExpand, label: "Expand", help: "give the table the whole screen, or restore",
            context: .global),
        KeyBinding(
            [.control("s")], .exportView, label: "Save",
            help: "save every row of the table to notifytop-VIEW-N.txt (:export csv|json picks)",
            context: .global),
        KeyBinding(
            [.control("p")], .dumpScreen, label: "Dump",
            help: "save the screen as notifytop-screen-N.txt plus a coloured .ans copy", context: .global),
        KeyBinding([.control("l")], .redraw, label: "Redraw", help: "repaint the screen", context: .global),
        KeyBinding([.up, .char("k")], .moveUp, label: "Up", help: "select the row above", context: .navigation),
        KeyBinding(
            [.down, .char("j")], .moveDown, label: "Down", help: "select the row below",
            context: .navigation),
        KeyBinding([.pageUp, .control("b")], .pageUp, label: "PgUp", help: "one page up", context: .navigation),
        KeyBinding(
            [.pageDown, .control("f")], .pageDown, label: "PgDn", help: "one page down",
            context: .navigation),
        KeyBinding([.home, .char("g")], .home, label: "Top", help: "first row", context: .navigation),
        KeyBinding(
            [.end, .char("G")], .end, label: "End", help: "last row; logs follow again",
            context: .navigation),
        KeyBinding(
            [.enter], .drillDown, label: "Open",
            help: "drill down: name → observers → deliveries; warning detail", context: .table, footer: 2),
        KeyBinding(
            [.escape, .backspace, .left], .back, label: "Back",
            help: "back up one level (from the top: to view 0)",
            context: .table),
        KeyBinding(
            [.function(4), .char("/"), .char("\\")], .editFilter, label: "Filter",
            help: "filter: text ~regex !not, columns: posts>100 avg>1ms (Esc clears)",
            context: .table, footer: 4),
        KeyBinding(
            [.function(3)], .editSearch, label: "Search",
            help: "search rows (same language as the filter); matches are highlighted", context: .table,
            footer: 3),
        KeyBinding([.char("n")], .nextMatch, label: "NextMatch", help: "select the next search match", context: .table),
        KeyBinding(
            [.char("N")], .previousMatch, label: "PrevMatch", help: "select the previous search match",
            context: .table),
        KeyBinding(
            [.function(5), .char("t")], .regroup, label: "Group",
            help: "Observers: group by name/observer/thread; Threads: lanes/merged", context: .table,
            footer: 5),
        KeyBinding(
            [.function(6), .char("s"), .char(">")], .sortNext, label: "Sort",
            help: "sort by the next column", context: .table, footer: 6),
        KeyBinding(
            [.char("<")], .sortPrevious, label: "SortPrev", help: "sort by the previous column",
            context: .table),
        KeyBinding(
            [.char("x")], .explain, label: "Why",
            help: "why observers ran or not: selected name, post, registration or leak warning",
            context: .table),
        KeyBinding(
            [.char("c")], .cascade, label: "Cascade",
            help: "cascade: the selected post's deliveries and the posts they made, as a tree",
            context: .table),
        KeyBinding(
            [.char("u")], .postedBy, label: "PostedBy",
            help: "posted by: from the selected delivery or post up to the post that began it",
            context: .table),
        KeyBinding([.char("I")], .invertSort, label: "Invert", help: "invert the sort order", context: .table),
        KeyBinding(
            [.char("o")], .toggleGroup, label: "Fold",
            help: "grouped Observers: fold the selected group to one summary row, or unfold it",
            context: .table),
        KeyBinding(
            [.char("O"), .char("*")], .toggleAllGroups, label: "FoldAll",
            help: "grouped Observers: fold every group, or unfold all", context: .table),
        KeyBinding(
            [.char("b")], .markRegistrations, label: "MarkSet",
            help: "mark the registration set now: Names and Observers show +N/−M since", context: .table),
        KeyBinding(
            [.char("f"), .char("F")], .toggleFollow, label: "Follow",
            help: "logs: keep the newest line in view (tables always keep the selected row)",
            context: .log),
        KeyBinding(
            [.char("m")], .dropMark, label: "Mark",
            help: "drop a numbered mark line at the log's current time", context: .log),
        KeyBinding(
            [.char("C")], .toggleClear, label: "Clear",
            help: "hide the log up to now (collection continues); C or Esc shows it again", context: .log),
        KeyBinding(
            [.char("w")], .toggleWrap, label: "Wrap",
            help: "wrap long cells onto continuation lines, or cut them again", context: .log),
        KeyBinding(
            [.function(9), .char("p"), .char(" "), .char("Z")], .togglePause, label: "Pause",
            help: "freeze the screen; collection continues (+N shown)", context: .global, footer: 9),
        KeyBinding(
            [.function(8), .char("r"), .char("R")], .toggleRecording, label: "Rec",
            help: "start/stop recording a session log", context: .live, footer: 8),
        KeyBinding(
            [.char("P")], .toggleProbeMode, label: "Probes",
            help: "--foundation --pid: count in the kernel, or print every event (bpftrace restarts, the app goes on)",
            context: .live),
        KeyBinding(
            [.char(".")], .stepEvent, label: "Step", help: "apply the next event", context: .replay,
            footer: 7),
        KeyBinding(
            [.char(",")], .stepBackEvent, label: "Back", help: "go back one event (folds again from the start)",
            context: .replay),
        KeyBinding([.char("]")], .stepSecond, label: "+1s", help: "advance one second", context: .replay),
        KeyBinding([.char("[")], .stepBackSecond, label: "-1s", help: "go back one second", context: .replay),
        KeyBinding(
            [.char("g")], .goToTime, label: "Go to",
            help: "go to a time: 1.5s, 250ms, 2m or seconds (Home is Top here)", context: .replay),
        KeyBinding(
            [.char("}")], .speedUp, label: "Speed+", help: "replay twice as fast (up to ×64)",
            context: .replay),
        KeyBinding(
            [.char("{")], .speedDown, label: "Speed-", help: "replay half as fast (down to ×0.25)",
            context: .replay),
    ])
}
