import Foundation
import NotifyKit

/// Renders theme previews when the theme changes, on the main thread. With `slow-main-handler`
/// it renders synchronously inside the handler, blocking the poster (and the main run loop) for
/// ``DemoConfiguration/slowHandlerMilliseconds`` (R7).
final class ThemePreviewRenderer: @unchecked Sendable {  // main lane only
    private let context: DemoContext
    private let bag = TokenBag()
    private(set) var renders = 0

    init(context: DemoContext) {
        self.context = context
        context.registered(.themeDidChange)
        bag.add(
            context.center.observe(
                DemoName.themeDidChange.name, owner: self, mainThreadOnly: context.uiRunsOnMainThread
            ) { renderer, _ in
                renderer.render()
            })
    }

    private func render() {
        context.received(.themeDidChange)
        renders += 1
        guard context.has(.slowMainHandler) else { return }
        // The bug: the whole preview is drawn here instead of being scheduled off the main thread.
        context.planted.plant(.slowMainHandler)
        Thread.sleep(forTimeInterval: Double(context.configuration.slowHandlerMilliseconds) / 1000)
    }
}
