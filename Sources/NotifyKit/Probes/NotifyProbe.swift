import NotifySystem

/// Receives every event of the centers it is attached to.
///
/// A probe is called synchronously on the thread where the event happened, sometimes while the
/// app is inside a post, so it must be quick and must never block: buffer, count, return.
/// Attach one with ``NotifyCenter/attach(_:)``; with none attached the center builds no events.
public protocol NotifyProbe: AnyObject, Sendable {
    /// Called once per event, in the order events happened on that thread.
    func receive(_ event: ProbeEvent)

    /// See the default implementation.
    var recorder: ProbeRecorder? { get }
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

extension NotifyProbe {
    /// The recorder a center writes this probe's posts and deliveries into, as binary records on
    /// each posting thread, instead of calling ``receive(_:)``; nil (the default) for a probe that
    /// takes every event as a ``ProbeEvent``. Read once, when the probe is attached.
    public var recorder: ProbeRecorder? { nil }
}
