public import Foundation
import Synchronization

/// The handle of one registration: cancel it, or pass it to `removeObserver`.
///
/// A token knows its center and a registration id that is never reused, so removal is
/// idempotent, a token of another center is ignored, and a stale token can never remove a newer
/// registration: the three ways Foundation's tokens go wrong on Linux.
///
/// Releasing a token does **not** end a block registration (Foundation's contract: the center owns
/// the block). The center records the release, which is how notifytop reports the leak. Keep
/// tokens in a property and cancel them when the observer goes away.
///
/// Like Foundation's tokens it is an `NSObject`, so code that keeps it as `NSObjectProtocol?`,
/// casts it `as? NSObject` or passes it as `Any` ports unchanged. Two tokens are equal only if
/// they are the same token.
public final class NotifyToken: NSObject, Sendable {
    /// The registration's id in its center, as events report it.
    public let registrationID: UInt64
    /// The table slot of the registration's name: 4 bytes where the name would take 16.
    let slot: UInt32
    /// Set once this token ended its registration, so releasing it needs no lookup.
    let ended = Atomic<Bool>(false)
    /// The center's link: comparing it tells a token of this center without loading a weak reference.
    let link: CenterLink

    init(registrationID: UInt64, slot: UInt32, link: CenterLink) {
        self.registrationID = registrationID
        self.slot = slot
        self.link = link
        super.init()
    }

    deinit {
        guard !ended.load(ordering: .relaxed) else { return }
        center?.tokenReleased(registrationID: registrationID, slot: slot)
    }

    /// Ends the registration. Calling it again, or after `removeObserver`, does nothing.
    ///
    /// After `cancel()` returns, the calling thread will not run the handler again; a delivery
    /// already running on another thread is not waited for.
    ///
    /// - Parameters:
    ///   - file: The call's `#fileID`, which the trace reports as the removal's site.
    ///   - line: The call's line.
    public func cancel(file: StaticString = #fileID, line: UInt = #line) {
        guard !ended.exchange(true, ordering: .relaxed) else { return }
        center?.end(
            registrationID: registrationID, slot: slot, reason: .tokenCancelled,
            callsite: ProbeEvent.Callsite(file: file, line: line))
    }

    /// The center this token's registration belongs to, while it exists.
    var center: NotifyCenter? { link.center }

    /// True while the registration can still deliver.
    public var isActive: Bool {
        center?.isLive(registrationID: registrationID, slot: slot) ?? false
    }

    public override var description: String {
        "NotifyToken(#\(registrationID), \(center?.observedName(registrationID: registrationID, slot: slot) ?? "ended"))"
    }

    /// Identity: a token equals only itself.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? NotifyToken) === self
    }

    public override var hash: Int {
        ObjectIdentifier(self).hashValue
    }
}

/// What tokens hold instead of a weak reference each: one shared object per center with the only
/// weak reference to it. Retaining it costs a token far less than forming a weak reference.
final class CenterLink: @unchecked Sendable {  // `center` is set once, in the center's init, before any token exists
    private(set) weak var center: NotifyCenter?

    func attach(_ center: NotifyCenter) {
        self.center = center
    }
}
