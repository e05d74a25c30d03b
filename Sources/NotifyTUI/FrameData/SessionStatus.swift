package import NotifyModel

/// Where the dashboard's data comes from and what the session is doing: the parts of the
/// header the model cannot know (pause, recording, replay speed, redraw delay, own CPU).
package struct SessionStatus: Sendable, Hashable {
    /// How events arrive.
    package enum Mode: Sendable, Hashable {
        /// Not attached yet (waiting for the demo's socket, or for the header).
        case connecting(String)
        /// Live from a process.
        case live
        /// A recording, at `speed`, stopped or playing.
        case replay(speed: Double, paused: Bool)
        /// No more events will come.
        case ended(String)
    }

    /// The mode.
    package var mode: Mode
    /// Events folded since the screen was frozen; nil when not paused.
    package var eventsWhilePaused: UInt64?
    /// The recording's path while recording.
    package var recordingPath: String?
    /// What `--foundation`'s probes send (the header's badge): `COUNTING` or `EVENTS`; nil for
    /// other sources.
    package var probeMode: String?
    /// Whether `--foundation`'s probes count in the kernel now: no single delivery arrives.
    package var probesCount: Bool { probeMode?.hasPrefix("COUNTING") == true }
    /// How a recording that stopped on a write error ended (bytes written, file incomplete).
    package var recordingFailure: String?
    /// The redraw delay.
    package var delayMilliseconds: Int
    /// The signatures of known findings (`--baseline`): the Leaks view marks the others `NEW`.
    /// Nil without a baseline.
    package var knownFindings: Set<LeakSignature>?
    /// The registration set marked with `b`; nil before the first mark.
    package var registrationMark: RegistrationMark?
    /// notifytop's own CPU use, in percent of one core; nil until measured.
    package var selfCPU: Double?
    /// Recent ``selfCPU`` readings (one a second), oldest first: the header's sparkline.
    package var selfCPUHistory: [Double] = []
    /// The host the inspected process runs on (`--ssh`); nil for this machine.
    package var host: String?
    /// Seconds the inspected process has been running, when known (live only).
    package var processUptime: Double?
    /// The stream time `@t` counts from, when not the header's clock base: a replay's first
    /// timed event, so a recording made mid-session counts from its own start.
    package var clockBase: UInt64?
    /// A replay's own clock (nanoseconds since the recording's start), which `@t` shows: it
    /// reaches a `g` target or `--to` even where no event lies exactly there. Nil when live.
    package var replayPosition: UInt64?
    /// Work under way that holds the screen's data back (a replay folding again to a seek's
    /// target), with how far it has got; shown until it ends.
    package var progress: String?
    /// A transient one-line message (recording started, cannot record, …).
    package var message: String?
    /// The source: a socket path or a recording's path.
    package var source: String

    /// Creates a status.
    package init(
        mode: Mode, source: String = "", delayMilliseconds: Int = 500, eventsWhilePaused: UInt64? = nil,
        recordingPath: String? = nil, selfCPU: Double? = nil, processUptime: Double? = nil, message: String? = nil
    ) {
        self.mode = mode
        self.source = source
        self.delayMilliseconds = delayMilliseconds
        self.eventsWhilePaused = eventsWhilePaused
        self.recordingPath = recordingPath
        self.selfCPU = selfCPU
        self.processUptime = processUptime
        self.message = message
    }

    /// Whether the events come from a recording, even once it has ended (so `,`, `[` and `g`
    /// can still go back from the end).
    package var isRecording = false

    /// Whether replay keys apply.
    package var isReplay: Bool {
        if case .replay = mode { return true }
        return isRecording
    }
}
