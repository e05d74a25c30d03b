import Foundation
import NotifyKit
import Synchronization

/// The window's chrome (tab bar, cart badge, progress bar, keyboard inset): the long-lived UI
/// object observing most main-thread names, owner-bound so its handlers never capture it, and the
/// typed ``CartTotalDidChange`` of any cart for the cart badge (its token lives as long as the chrome).
///
/// Its handlers are declared main-thread-only; names posted off the main thread (the sync's start
/// and end) are delivered through the main queue.
final class AppChrome: @unchecked Sendable {  // `updates` is atomic (a planted bug may call from a worker)
    private let bag = TokenBag()
    private let updates = Atomic<Int>(0)
    /// The cart badge's observer of ``CartTotalDidChange`` from any cart.
    private var cartTotal: NotifyCenter.ObservationToken?

    /// Names posted on the main thread that the chrome reacts to in place.
    static let mainNames: [DemoName] = [
        .themeDidChange, .localeDidChange, .sessionDidChange, .cartDidChange, .keyboardWillShow, .keyboardWillHide,
        .downloadProgress, .badgeCountDidChange,
    ]

    /// Names posted by the sync on its operation queue, hopped to the main queue.
    static let hoppedNames: [DemoName] = [.syncDidStart, .syncDidFinish]

    init(context: DemoContext) {
        let mainOnly = context.uiRunsOnMainThread
        if context.typedMessages {
            context.registered(.cartTotalDidChange)
            cartTotal = context.center.addObserver(for: CartTotalDidChange.self) { [context] _ in
                context.received(.cartTotalDidChange)
            }
        }
        for name in Self.mainNames {
            context.registered(name)
            bag.add(
                context.center.observe(name.name, owner: self, mainThreadOnly: mainOnly) { [context] chrome, _ in
                    context.received(name)
                    chrome.updates.add(1, ordering: .relaxed)
                })
        }
        for name in Self.hoppedNames {
            context.registered(name)
            bag.add(
                context.center.observe(
                    name.name, owner: self, deliverOn: context.targets.ui, mainThreadOnly: mainOnly
                ) { [context] chrome, _ in
                    context.received(name)
                    chrome.updates.add(1, ordering: .relaxed)
                })
        }
    }
}

/// The unread badge: hears about messages from worker threads through the main queue (the
/// correct hop), then posts the new count on the main thread.
final class BadgeController: @unchecked Sendable {  // main lane only
    private let context: DemoContext
    private let bag = TokenBag()
    private(set) var unread = 0

    init(context: DemoContext) {
        self.context = context
        context.registered(.messageDidArrive)
        bag.add(
            context.center.observe(
                DemoName.messageDidArrive.name, owner: self, deliverOn: context.targets.ui,
                mainThreadOnly: context.uiRunsOnMainThread
            ) { badge, _ in
                badge.messageArrived()
            })
    }

    private func messageArrived() {
        context.received(.messageDidArrive)
        unread += 1
        context.post(.badgeCountDidChange)
    }
}
