import NotifySystem

/// Receives every event of the centers it is attached to.
///
/// A probe is called synchronously on the thread where the event happened, sometimes while the
/// app is inside a post, so it must be quick and must never block: buffer, count, return.
/// Attach one with ``NotifyCenter/attach(_:)``; with none attached the center builds no events.
public protocol NotifyProbe: AnyObject, Sendable {
    /// Called once per event, in the order events happened on that thread.
    func receive(_ event: ProbeEvent)
}

/// A probe whose posts and deliveries a center writes as binary records on each posting thread,
/// into ``recorder``, instead of calling ``NotifyProbe/receive(_:)``. Read once, when the probe
/// is attached.
package protocol RecordingProbe: NotifyProbe {
    var recorder: ProbeRecorder { get }
    /// Written into every record this probe's center puts in ``recorder``, so one recorder can
    /// serve several centers and its reader tell their records apart. 0 unless a probe says otherwise.
    var centerTag: UInt8 { get }
}

extension RecordingProbe {
    package var centerTag: UInt8 { 0 }
}

/// Detaches a probe when cancelled or released.
public final class NotifyProbeAttachment: Sendable {
    private let detachAction: LockedValue<(@Sendable () -> Void)?>

    init(detach: @escaping @Sendable () -> Void) {
        detachAction = LockedValue(detach)
    }

    /// Stops events to the probe; later calls do nothing.
    public func detach() {
        let action = detachAction.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit { detach() }
}
