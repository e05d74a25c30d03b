import Foundation
import NotifyKit

/// A transient message that hides itself when the user navigates: a target–action observer of
/// `ScreenDidAppear`. Clean, ``dismiss()`` removes it while the toast is alive. With
/// `dealloc-without-remove` it is dismissed without removing and deallocates still registered; the
/// center finds the dead observer at the next `ScreenDidAppear` and purges it (R3, dead observer).
final class ToastView: @unchecked Sendable {  // main lane only
    private let context: DemoContext
    let shownAtStep: Int
    private(set) var hidden = false

    init(context: DemoContext, step: Int) {
        self.context = context
        shownAtStep = step
        context.registered(.screenDidAppear)
        context.center.addObserver(
            self, action: ToastView.screenAppeared, name: DemoName.screenDidAppear.name,
            object: nil)
    }

    /// Takes the toast off screen; the caller then lets it go.
    func dismiss() {
        if context.has(.deallocWithoutRemove) {
            // The bug: relying on deallocation to end a registration.
            context.planted.plant(.deallocWithoutRemove)
        } else {
            context.center.removeObserver(self)
        }
    }

    private func screenAppeared(_ note: Notification) {
        context.received(.screenDidAppear)
        hidden = true
    }
}

/// The "What's new" banner shown once at launch and dismissed a few steps later. Clean, its
/// handler takes the banner as the owner parameter and the banner ends its registration when
/// dismissed. With `self-capture` the handler captures the banner itself, so the center keeps
/// the banner alive after the app lets it go (R4): it never deallocates and keeps restyling.
final class WhatsNewBanner: @unchecked Sendable {  // main lane only
    private let context: DemoContext
    private let bag = TokenBag()
    private(set) var restyles = 0

    init(context: DemoContext) {
        self.context = context
        if context.has(.selfCapture) {
            // The bug: `self.restyle()` inside the handler instead of using the owner parameter.
            context.registered(.themeDidChange)
            bag.add(
                context.center.observe(DemoName.themeDidChange.name, owner: self) { _, _ in
                    self.restyle()
                })
            context.planted.plant(.selfCapture)
        } else {
            context.registered(.themeDidChange)
            bag.add(
                context.center.observe(DemoName.themeDidChange.name, owner: self) { banner, _ in
                    banner.restyle()
                })
        }
    }

    /// Hides the banner; the caller then lets it go.
    func dismiss() {
        guard !context.has(.selfCapture) else { return }  // the buggy banner thinks deinit will do it
        bag.cancelAll()
    }

    private func restyle() {
        context.received(.themeDidChange)
        restyles += 1
    }
}
