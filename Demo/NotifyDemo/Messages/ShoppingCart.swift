import Foundation
import NotifyKit

/// The shopping cart the cart screens show: the subject of ``CartTotalDidChange``.
final class ShoppingCart: @unchecked Sendable {  // main lane only
    private(set) var items = 0
    private(set) var totalCents = 0

    /// Adds one item; prices cycle through a few values, so the total needs no random draw.
    func addItem() {
        items += 1
        totalCents += 499 + 100 * (items % 5)
    }
}

/// The cart's new total, for the screens showing it: a main-actor message, posted on the main
/// thread with the cart as subject and delivered inside `post`.
struct CartTotalDidChange: NotifyCenter.MainActorMessage {
    typealias Subject = ShoppingCart
    let items: Int
    let totalCents: Int
}

extension NotifyCenter.MessageIdentifier where Self == NotifyCenter.BaseMessageIdentifier<CartTotalDidChange> {
    /// `addObserver(of: cart, for: .cartTotalDidChange)`.
    static var cartTotalDidChange: Self { .init() }
}

/// A document was saved, for the services that follow up off the main thread: an async message,
/// posted on the main thread with the document as subject; its observers run later, on tasks.
struct DocumentSaved: NotifyCenter.AsyncMessage {
    typealias Subject = Document
    let path: String
    let edits: Int
}
