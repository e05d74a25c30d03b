/// The `:` command palette (k9s style): every key's action by name, plus commands that take an
/// argument (`sort posts`, `filter dur>5ms`, `view leaks`). The list is generated from the
/// ``Keymap``, so the palette, the keys and the help cannot disagree.
package enum CommandPalette {
    /// One command as the palette lists it.
    package struct Command: Sendable, Hashable {
        /// What is typed: `quit`, `view names`, `sort`.
        package var name: String
        /// What follows the name (`COLUMN`), nil for none; optional arguments are in brackets.
        package var argument: String?
        /// One line of help.
        package var help: String
    }

    /// What a palette line asks for.
    package enum Resolution: Sendable, Hashable {
        /// A key's action.
        case action(Action)
        /// Sort by this column (again: invert).
        case sort(column: Int)
        /// Set the filter.
        case filter(String)
        /// Set the search.
        case search(String)
        /// Save the table in this format (and make it Ctrl-S's).
        case export(ExportFormat)
        /// Switch the colour scheme.
        case theme(Theme)
    }

    /// Commands that take an argument, beyond the keymap's.
    static let argumentCommands: [Command] = [
        Command(name: "sort", argument: "COLUMN", help: "sort by a column (again: invert)"),
        Command(name: "filter", argument: "[QUERY]", help: "set the filter; without a query, type one"),
        Command(name: "search", argument: "[QUERY]", help: "set the search; without a query, type one"),
        Command(name: "view", argument: "NAME", help: "show a view by name or number"),
        Command(
            name: "export", argument: "FORMAT",
            help: "save every row of the table (text, csv, json) or the events as a timeline (perfetto)"),
        Command(name: "theme", argument: "NAME", help: "colours: default, light or mono"),
    ]

    /// Every command for a live session or a replay: the keymap's actions, then the argument
    /// commands not already listed.
    package static func commands(keymap: Keymap = .standard, isReplay: Bool = false) -> [Command] {
        var seen: Set<String> = []
        var result: [Command] = []
        for binding in keymap.bindings where keymap.applies(binding, isReplay: isReplay) {
            guard let name = binding.action.commandName, seen.insert(name).inserted else { continue }
            result.append(Command(name: name, argument: nil, help: binding.help))
        }
        for command in argumentCommands where !seen.contains(command.name) || command.argument != nil {
            if let index = result.firstIndex(where: { $0.name == command.name }) {
                result[index].argument = command.argument
            } else {
                result.append(command)
            }
        }
        return result
    }

    /// Tab: completes `text` to the longest unambiguous prefix.
    ///
    /// - Returns: The new text and, when several commands fit, the candidates to show.
    package static func complete(_ text: String, keymap: Keymap = .standard, context: FrameInfo) -> (String, [String]) {
        let typed = text.drop { $0 == " " }.lowercased()
        // A command that needs an argument completes with the space after it.
        var words = commands(keymap: keymap, isReplay: context.isReplay).map { command in
            command.argument.map { $0.hasPrefix("[") ? command.name : command.name + " " } ?? command.name
        }
        if let space = typed.firstIndex(of: " ") {
            let head = String(typed[..<space])
            if head == "sort" {
                words = context.fields.map { "sort " + FilterQuery.normalizedField($0) }.filter { $0 != "sort " }
            } else if head == "theme" {
                words = Theme.allCases.map { "theme " + $0.rawValue }
            } else if head == "export" {
                words = ExportFormat.allCases.map { "export " + $0.rawValue }
            } else if head == "view" {
                words = ViewID.allCases.map { "view " + $0.title.lowercased() }
            }
        }
        let candidates = words.filter { $0.hasPrefix(typed) }
        guard let first = candidates.first else { return (text, []) }
        if candidates.count == 1 { return (first, []) }
        var prefix = first
        for candidate in candidates.dropFirst() {
            while !candidate.hasPrefix(prefix) { prefix.removeLast() }
        }
        return (prefix.count > typed.count ? prefix : text, candidates)
    }

    /// Reads a palette line.
    package static func resolve(
        _ text: String, keymap: Keymap = .standard, context: FrameInfo
    ) -> Result<Resolution, PaletteError> {
        let line = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        let lowered = line.lowercased()
        guard !line.isEmpty else { return .failure(PaletteError("type a command; Tab lists them")) }
        for binding in keymap.bindings where keymap.applies(binding, isReplay: context.isReplay) {
            if binding.action.commandName == lowered { return .success(.action(binding.action)) }
        }
        let head = lowered.prefix { $0 != " " }
        let argument = line.drop { $0 != " " }.drop { $0 == " " }
        switch head {
        case "sort":
            guard !argument.isEmpty else { return .failure(PaletteError("sort needs a column: \(fieldList(context))")) }
            do throws(FilterQuery.ParseError) {
                let column = try FilterQuery.column(named: String(argument), in: context.fields)
                guard context.sortableColumns.contains(column) else {
                    return .failure(PaletteError("\(argument) cannot be sorted here"))
                }
                return .success(.sort(column: column))
            } catch {
                return .failure(PaletteError(error.description))
            }
        case "filter": return .success(.filter(String(argument)))
        case "search": return .success(.search(String(argument)))
        case "theme":
            guard let theme = Theme(name: String(argument)) else {
                return .failure(PaletteError("theme takes \(Theme.allCases.map(\.rawValue).joined(separator: ", "))"))
            }
            return .success(.theme(theme))
        case "export":
            guard let format = ExportFormat(rawValue: String(argument).lowercased()) else {
                return .failure(
                    PaletteError("export takes " + ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")))
            }
            return .success(.export(format))
        case "view":
            guard let view = ViewID(argument: String(argument)) else {
                return .failure(
                    PaletteError(
                        "no view \"\(argument)\" (\(ViewID.allCases.map { $0.title.lowercased() }.joined(separator: "|")))"
                    ))
            }
            return .success(.action(.show(view)))
        default:
            return .failure(PaletteError("unknown command \"\(head)\" (Tab lists commands)"))
        }
    }

    static func fieldList(_ context: FrameInfo) -> String {
        context.sortableColumns.filter { context.fields.indices.contains($0) }
            .map { FilterQuery.normalizedField(context.fields[$0]) }.joined(separator: " ")
    }
}

/// Why a palette line cannot run, in one line.
package struct PaletteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message.
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}

extension Action {
    /// The action's name in the `:` palette; nil for the palette itself.
    package var commandName: String? {
        switch self {
        case .quit: "quit"
        case .toggleHelp: "help"
        case .show(let view): "view " + view.title.lowercased()
        case .nextView: "next-view"
        case .previousView: "prev-view"
        case .moveUp: "up"
        case .moveDown: "down"
        case .pageUp: "page-up"
        case .pageDown: "page-down"
        case .home: "top"
        case .end: "bottom"
        case .drillDown: "open"
        case .back: "back"
        case .editFilter: "filter"
        case .editSearch: "search"
        case .nextMatch: "next-match"
        case .previousMatch: "prev-match"
        case .openPalette: nil
        case .toggleExpand: "expand"
        case .exportView: "save"
        case .dumpScreen: "screendump"
        case .sortNext: "sort-next"
        case .sortPrevious: "sort-prev"
        case .invertSort: "invert"
        case .regroup: "group"
        case .toggleFollow: "follow"
        case .dropMark: "mark"
        case .markRegistrations: "mark-set"
        case .toggleClear: "clear"
        case .toggleWrap: "wrap"
        case .explain: "explain"
        case .cascade: "cascade"
        case .postedBy: "posted-by"
        case .toggleGroup: "fold"
        case .toggleAllGroups: "fold-all"
        case .togglePause: "pause"
        case .showOverview: "overview"
        case .toggleRecording: "record"
        case .toggleProbeMode: "probes"
        case .faster: "faster"
        case .slower: "slower"
        case .stepEvent: "step"
        case .stepSecond: "step-second"
        case .stepBackEvent: "step-back"
        case .stepBackSecond: "step-back-second"
        case .goToTime: "goto"
        case .speedUp: "speed-up"
        case .speedDown: "speed-down"
        case .redraw: "redraw"
        }
    }
}
