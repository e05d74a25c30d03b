/// What the probes send notifytop: figures counted in the kernel, or every event as a line.
package enum ProbeMode: String, Sendable, CaseIterable {
    /// Posts and deliveries counted in BPF maps and read every ``CountingProgram/readMilliseconds``
    /// (``CountingProgram``): the app pays the probes' traps, not their lines. Adds, removals and
    /// a center's end are still lines. No single post or delivery, so no durations, cascades,
    /// explanations or Events view.
    case counting
    /// One line per add, post, removal and delivery (``ProbeProgram``): everything the views show.
    case events

    /// The other mode.
    package var other: ProbeMode { self == .counting ? .events : .counting }

    /// What the header's producer and the dashboard's badge say.
    package var label: String { self == .counting ? "counting in the kernel" : "every event as a line" }
}
