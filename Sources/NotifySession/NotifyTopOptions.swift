import NotifyModel
import NotifyTUI

/// What the command line asked for; the executable fills it in and ``NotifyTopRunner`` acts on it.
public struct NotifyTopOptions: Sendable {
    /// Attach to this process.
    public var pid: Int32?
    /// Attach to this socket.
    public var socket: String?
    /// Print the inspectable processes and exit.
    public var list = false
    /// Start `notify-demo` with ``demoArguments`` and attach to it.
    public var demo = false
    /// Arguments for `notify-demo`.
    public var demoArguments: [String] = []
    /// Save the raw trace to this file from the first byte.
    public var record: String?
    /// Replay this recording instead of attaching.
    public var replay: String?
    /// Replay speed; 0 plays everything at once.
    public var speed: Double?
    /// Print plain-text frames instead of running the TUI.
    public var batch = false
    /// Frames to print in batch mode.
    public var iterations = 1
    /// The view to show first (and print, in batch mode).
    public var view: ViewID = .names
    /// Redraw delay.
    public var delayMilliseconds = 500
    /// Batch mode fails (exit 3) when open findings of this severity or worse exist.
    public var failOn: LeakSeverity?
    /// Attributes only.
    public var monochrome = false
    /// ASCII glyphs only.
    public var ascii = false
    /// Report clicks and the wheel to the dashboard.
    public var mouse = true
    /// The colour scheme to start with.
    public var theme: Theme = .standard
    /// Batch frame size; nil takes COLUMNS/LINES or 120x40.
    public var size: Size?

    /// Creates default options.
    public init() {}
}
