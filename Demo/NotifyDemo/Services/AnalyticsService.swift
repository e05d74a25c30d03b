import NotifyKit

/// Records app events off the main thread, as analytics SDKs do: block observers delivered on a
/// serial dispatch queue, registered once at launch and kept for the app's lifetime.
final class AnalyticsService: @unchecked Sendable {  // immutable after init
    private let bag = TokenBag()

    /// The names analytics listens to; every one is posted by the clean app.
    static let names: [DemoName] = [
        .appDidBecomeActive, .appWillResignActive, .screenDidAppear, .screenDidDisappear, .sessionDidChange,
        .downloadDidFinish, .cacheDidEvict,
    ]

    init(context: DemoContext) {
        for name in Self.names {
            context.registered(name)
            bag.add(
                context.center.addObserver(
                    forName: name.name, object: nil, deliverOn: context.targets.background
                ) { [context] _ in
                    context.received(name)
                })
        }
    }
}
