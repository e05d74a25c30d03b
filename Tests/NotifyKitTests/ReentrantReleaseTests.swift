import Foundation
import NotifyKit
import Testing

/// Removes its own registrations when it deallocates: the classic `deinit { removeObserver(self) }`.
private final class SelfRemovingObserver: @unchecked Sendable {  // immutable after init
    let center: NotifyCenter
    init(center: NotifyCenter) { self.center = center }
    func handle(_ note: Notification) {}
    deinit { center.removeObserver(self) }
}

/// Holds a token; releasing the holder releases the token inside whatever released the holder.
private final class TokenHolder: @unchecked Sendable {
    var token: NotifyToken?
}

@Suite("Releases that call back into the center")
struct ReentrantReleaseTests {
    @Test("removing a block whose captures own another token does not deadlock")
    func removalReleasesTokenOutsideTheLock() {
        let center = NotifyCenter()
        let holder = TokenHolder()
        holder.token = center.addObserver(forName: Notification.Name("inner"), object: nil, queue: nil) { _ in }
        let outer = center.addObserver(forName: Notification.Name("outer"), object: nil, queue: nil) { [holder] _ in
            _ = holder
        }
        holder.token.map { _ in () }
        // The only reference to `holder` is now the block; cancelling releases it and its token.
        let weakHolder = WeakRef(holder)
        _ = consume holder
        outer.cancel()
        #expect(weakHolder.value == nil)
        #expect(center.registrationCount == 1)
    }

    @Test("an observer whose deinit calls removeObserver can be released by the center")
    func observerDeinitCallsBackIntoCenter() {
        let center = NotifyCenter()
        var observer: SelfRemovingObserver? = SelfRemovingObserver(center: center)
        let captured = observer!
        let token = center.addObserver(forName: Notification.Name("n"), object: nil, queue: nil) { [captured] _ in
            captured.handle(Notification(name: Notification.Name("n")))
        }
        let weakObserver = WeakRef(captured)
        _ = consume captured
        observer = nil
        token.cancel()
        #expect(weakObserver.value == nil)
        #expect(center.registrationCount == 0)
    }
}
