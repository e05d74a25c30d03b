import NotifyKit

/// The tokens of one owner, cancelled together when the owner closes (or, as a safety net,
/// deallocates).
///
/// This is the clean pattern the planted bugs deviate from: a registration never outlives the
/// object it serves, a token is never released while its registration is live (no R1), and removal
/// goes by token, so it works even from `deinit`, where `removeObserver(self)` would find the
/// owner already unreachable.
final class TokenBag: @unchecked Sendable {  // used by its owner's thread only
    private var tokens: [NotifyToken] = []

    /// Keeps `token` until ``cancelAll()``.
    func add(_ token: NotifyToken) {
        tokens.append(token)
    }

    /// The number of tokens held.
    var count: Int { tokens.count }

    /// Ends every registration in the bag, in the order they were made.
    func cancelAll() {
        let taken = tokens
        tokens.removeAll()
        for token in taken { token.cancel() }
    }

    deinit {
        for token in tokens { token.cancel() }
    }
}
