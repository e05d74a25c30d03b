extension ViewState {
    /// A key while a prompt is open: text editing, Tab completion (palette), Enter, Esc.
    mutating func editPrompt(with key: Key, keymap: Keymap, context: FrameInfo) -> Reaction {
        guard var prompt else { return .none }
        switch key {
        case .control("c"):
            return Reaction(quit: true)
        case .escape:
            self.prompt = nil
            switch prompt.kind {
            case .filter: table.filter = ""
            case .search: table.search = ""
            case .command, .time: break
            }
            return .redraw
        case .enter:
            return submit(prompt, keymap: keymap, context: context)
        case .backspace, .delete:
            if prompt.text.isEmpty {
                self.prompt = nil
                return .redraw
            }
            prompt.text.removeLast()
        case .character(let character):
            prompt.text.append(character)
        case .tab where prompt.kind == .command:
            let (text, candidates) = CommandPalette.complete(prompt.text, keymap: keymap, context: context)
            let known = CommandPalette.commands(keymap: keymap, isReplay: context.isReplay)
                .contains { text.lowercased().hasPrefix($0.name) }
            prompt.error =
                candidates.isEmpty && text == prompt.text && !known
                ? "no command starts with \"\(text)\"" : nil
            prompt.text = text
            prompt.candidates = candidates
            self.prompt = prompt
            return .redraw
        case .up
        where (prompt.kind == .filter || prompt.kind == .search) && prompt.text.isEmpty
            && !prompt.original.isEmpty:
            prompt.text = prompt.original
        case .up, .down, .pageUp, .pageDown:
            // Moving leaves a filter or search prompt (keeping its text); the others ignore it.
            guard prompt.kind == .filter || prompt.kind == .search else { return .none }
            self.prompt = nil
            return handle(key, keymap: keymap, context: context)
        default:
            return .none
        }
        prompt.error = nil
        prompt.candidates = []
        self.prompt = prompt
        applyLive(prompt, context: context)
        return .redraw
    }

    /// Filter and search take effect as they are typed, whenever the text parses; otherwise the
    /// previous one stays in effect and the reason is shown.
    private mutating func applyLive(_ prompt: Prompt, context: FrameInfo) {
        guard prompt.kind == .filter || prompt.kind == .search else { return }
        do {
            _ = try FilterQuery(prompt.text, fields: context.fields)
            if prompt.kind == .filter {
                table.filter = prompt.text
                table.selectedIndex = 0
                table.scroll = 0
            } else {
                table.search = prompt.text
            }
        } catch {
            // The filter from before the prompt stays in effect, not a prefix of the text that
            // happened to parse, so the table never explains an empty result by text still being typed.
            if prompt.kind == .filter { table.filter = prompt.original } else { table.search = prompt.original }
            self.prompt?.error = error.description
        }
    }

    private mutating func submit(_ prompt: Prompt, keymap: Keymap, context: FrameInfo) -> Reaction {
        switch prompt.kind {
        case .filter, .search:
            if let error = Self.queryError(prompt.text, context: context) {
                // Keep the prompt open to fix the text; the filter from before stays in effect.
                if prompt.kind == .filter { table.filter = prompt.original } else { table.search = prompt.original }
                self.prompt?.error = error
                let what = prompt.kind == .filter ? "filter" : "search"
                return Reaction(
                    redraw: true, command: .logAction(.filter, "\(what) \"\(prompt.text)\" not applied: \(error)"))
            }
            self.prompt = nil
            if prompt.kind == .filter {
                table.filter = prompt.text
                return .redraw
            }
            table.search = prompt.text
            guard !prompt.text.isEmpty else { return .redraw }
            return jumpToMatch(forward: true, context: context, includingSelected: true)
        case .command:
            self.prompt = nil
            return run(prompt.text, keymap: keymap, context: context)
        case .time:
            guard let nanoseconds = TimeOffset.nanoseconds(prompt.text) else {
                self.prompt?.error = "not a time: 1.5s, 250ms, 2m or seconds"
                return .redraw
            }
            self.prompt = nil
            return Reaction(redraw: true, command: .goToTime(nanoseconds))
        }
    }

    static func queryError(_ text: String, context: FrameInfo) -> String? {
        do {
            _ = try FilterQuery(text, fields: context.fields)
            return nil
        } catch {
            return error.description
        }
    }

    /// Runs a palette line.
    mutating func run(_ line: String, keymap: Keymap, context: FrameInfo) -> Reaction {
        switch CommandPalette.resolve(line, keymap: keymap, context: context) {
        case .failure(let error):
            notice = Notice(error.description, isError: true)
            return .redraw
        case .success(.action(let action)):
            return reduce(action, context: context)
        case .success(.sort(let column)):
            if (table.sortColumn ?? context.sortColumn) == column {
                table.inverted.toggle()
            } else {
                table.sortColumn = column
                table.inverted = false
            }
        case .success(.filter(let query)):
            if let error = Self.queryError(query, context: context) {
                notice = Notice("filter not changed: " + error, isError: true)
            } else {
                table.filter = query
                table.selectedIndex = 0
                table.scroll = 0
            }
        case .success(.theme(let theme)):
            self.theme = theme
            return Reaction(redraw: true, command: .setTheme(theme))
        case .success(.export(let format)):
            if format.isTable { exportFormat = format }
            return Reaction(redraw: true, command: .export(format))
        case .success(.search(let query)):
            if let error = Self.queryError(query, context: context) {
                notice = Notice("search not changed: " + error, isError: true)
            } else {
                table.search = query
                if !query.isEmpty { notice = Notice("search set: n/N move between matches") }
            }
        }
        return .redraw
    }

    /// `n`/`N`: selects the next (or previous) row matching the search, wrapping around.
    mutating func jumpToMatch(forward: Bool, context: FrameInfo, includingSelected: Bool = false) -> Reaction {
        guard !table.search.isEmpty else {
            notice = Notice("no search: F3 starts one", isError: true)
            return .redraw
        }
        let matches = context.matchIndices
        guard !matches.isEmpty else {
            notice = Notice("no row matches \"\(table.search)\"", isError: true)
            return .redraw
        }
        let current = context.selectedIndex
        let target: Int
        if forward {
            target = matches.first { includingSelected ? $0 >= current : $0 > current } ?? matches[0]
        } else {
            target = matches.last { $0 < current } ?? matches[matches.count - 1]
        }
        select(target, context: context, follow: false)
        if let position = matches.firstIndex(of: target) {
            notice = Notice("match \(position + 1) of \(matches.count)")
        }
        return .redraw
    }
}
