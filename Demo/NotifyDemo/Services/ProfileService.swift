import NotifyKit

/// Profile edits on the main thread. Clean, an avatar change posts `SessionDidChange`. With
/// `typo-post` it posts a hand-typed "SesionDidChange", which no observer hears (R9).
struct ProfileService {
    let context: DemoContext

    func avatarDidChange() {
        if context.has(.typoPost) {
            // The bug: a string literal instead of the shared name constant.
            context.planted.plant(.typoPost)
            context.post(.sessionDidChangeTypo)
        } else {
            context.post(.sessionDidChange)
        }
    }
}
