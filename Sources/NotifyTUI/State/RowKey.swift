/// What a table row stands for. The selection follows a row by its key when the sort order
/// changes, and Enter opens the row's ``drillTarget``, so the reducer can drill from a row it only
/// knows by key, without asking the model.
package indirect enum RowKey: Sendable, Hashable, CustomStringConvertible {
    /// A notification name (Names).
    case name(String)
    /// A registration (Observers, a warning's registrations).
    case registration(UInt64)
    /// One delivery of a post to a registration (a Threads log line).
    case delivery(registration: UInt64, post: UInt64)
    /// A trace event by sequence number, with the registration it is about, if any (Events).
    case event(seq: UInt64, registration: UInt64?)
    /// A leak finding, by its key's description (Leaks).
    case warning(String)
    /// A thread (a Threads lane).
    case thread(UInt64)
    /// An entry of notifytop's own action log, counted from the first entry ever (Log).
    case action(Int)
    /// A detail line that opens nothing, by its position.
    case line(Int)
    /// A log mark's separator, by the mark's number.
    case mark(Int)
    /// A folded group's summary row, by the group's first-column text.
    case group(String)
    /// An inspectable process, by pid (the overview).
    case process(Int32)
    /// An explanation pane, by what it explains (it is reached with `x`, never from a row).
    case why(String)
    /// A wrapped row's continuation line `part` (1 is the first line after the row).
    case continuation(RowKey, part: Int)

    /// Where Enter on this row goes; nil for rows that open nothing. A continuation line opens
    /// what its row opens.
    package var drillTarget: DrillLevel? {
        switch self {
        case .name(let name): .name(name)
        case .registration(let id), .delivery(let id, _): .registration(id)
        case .event(_, let registration): registration.map { .registration($0) }
        case .warning(let key): .warning(key)
        case .thread(let id): .thread(id)
        case .action, .line, .mark, .group, .process, .why: nil
        case .continuation(let row, _): row.drillTarget
        }
    }

    /// Whether this is a folded group's summary row.
    package var isGroup: Bool {
        if case .group = self { return true }
        return false
    }

    /// A readable spelling for logs and test failures, such as `name:cartDidChange`, `reg:4#5`,
    /// `reg:4#e12` or `act:1~1`; never parsed back.
    package var description: String {
        switch self {
        case .name(let name): "name:" + name
        case .registration(let id): "reg:\(id)"
        case .delivery(let id, let post): "reg:\(id)#\(post)"
        case .event(let seq, let registration?): "reg:\(registration)#e\(seq)"
        case .event(let seq, nil): "evt:\(seq)"
        case .warning(let key): "warn:" + key
        case .thread(let id): "thread:\(id)"
        case .action(let index): "act:\(index)"
        case .line(let index): "line:\(index)"
        case .mark(let number): "mark:\(number)"
        case .group(let group): "group:" + group
        case .process(let pid): "pid:\(pid)"
        case .why(let subject): "why:" + subject
        case .continuation(let row, let part): row.description + "~\(part)"
        }
    }
}
