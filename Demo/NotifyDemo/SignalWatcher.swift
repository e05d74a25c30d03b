import Dispatch
import Foundation

/// Turns signals into blocks on the main queue, which the main run loop drains: Ctrl-C and SIGTERM
/// end the demo cleanly (so the inspector's exit handler can say goodbye and remove the socket),
/// and SIGUSR1 prints the ground truth without stopping.
///
/// The default action of each watched signal is ignored, so it is delivered only through the
/// dispatch source, never as an asynchronous interrupt in the middle of a post.
final class SignalWatcher {
    private var sources: [any DispatchSourceSignal] = []

    /// Runs `handler` on the main queue each time `signal` arrives.
    func watch(_ number: Int32, handler: @escaping @Sendable () -> Void) {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
        source.setEventHandler(handler: handler)
        source.resume()
        sources.append(source)
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
