import Foundation
import NotifyKit
import NotifySystem
import Synchronization

/// The cart: a target–action observer of `CartDidChange`, a typed observer of its cart's
/// ``CartTotalDidChange`` (the total line), and a table whose cells are created
/// once and reused while scrolling, each cell observing `ThemeDidChange` owner-bound. With
/// `split-register`, `viewDidLoad` observes `CartDidChange` again with a call of its own, so every
/// cart change reloads twice (R5, two callsites).
final class CartScreen: ModalScreen, @unchecked Sendable {  // main lane only, but `reloads` is atomic:
    // with `background-to-main` its handler also runs on a worker thread, the race that bug stands for.
    let title = "Cart"
    private let context: DemoContext
    private let table: CartTable
    private let reloads = Atomic<Int>(0)
    private let bag = TokenBag()
    /// The total line's observer of ``CartTotalDidChange`` for this screen's cart; removed in ``close()``.
    private var totalLine: NotifyCenter.ObservationToken?

    init(context: DemoContext, cart: ShoppingCart) {
        self.context = context
        table = CartTable(context: context)
        if context.typedMessages {
            context.registered(.cartTotalDidChange)
            totalLine = context.center.addObserver(of: cart, for: .cartTotalDidChange) { [context] _ in
                context.received(.cartTotalDidChange)
            }
        }
        context.registered(.cartDidChange)
        context.center.addObserver(
            self, action: CartScreen.cartChanged, name: DemoName.cartDidChange.name,
            object: nil)
        viewDidLoad()
    }

    private func viewDidLoad() {
        guard context.has(.splitRegister) else { return }
        // The bug: init already observes CartDidChange; this second subscription is its own call.
        context.registered(.cartDidChange)
        bag.add(
            context.center.observe(DemoName.cartDidChange.name, owner: self) { screen, note in
                screen.cartChanged(note)
            })
        context.planted.plant(.splitRegister)
    }

    /// Scrolls to a random row, dequeuing and reconfiguring cells.
    func scroll(using rng: inout SplitMix64) {
        table.scroll(to: rng.below(CartTable.rowCount))
    }

    func close() {
        context.center.removeObserver(self)
        if let totalLine { context.center.removeObserver(totalLine) }
        totalLine = nil
        bag.cancelAll()
        table.tearDown()
    }

    private func cartChanged(_ note: Notification) {
        context.received(.cartDidChange)
        reloads.add(1, ordering: .relaxed)
    }
}

/// A table with a fixed pool of reusable cells, the `dequeueReusableCell` pattern: scrolling
/// creates cells until the pool is full, then only reconfigures them.
final class CartTable: @unchecked Sendable {  // main lane only
    static let rowCount = 40
    static let visibleRows = 6
    private let context: DemoContext
    private var pool: [CartCell] = []
    private var top = 0

    init(context: DemoContext) {
        self.context = context
        scroll(to: 0)
    }

    /// Shows rows `row..<row + visibleRows`, creating a cell only when the pool is short.
    func scroll(to row: Int) {
        top = min(row, Self.rowCount - Self.visibleRows)
        for offset in 0..<Self.visibleRows {
            if offset == pool.count { pool.append(CartCell(context: context)) }
            pool[offset].configure(row: top + offset)
        }
    }

    /// Cancels every cell's registration and lets the cells go.
    func tearDown() {
        for cell in pool { cell.prepareForRemoval() }
        pool.removeAll()
    }
}

/// One reusable cart row; restyles itself when the theme changes.
final class CartCell: @unchecked Sendable {  // main lane only
    private let bag = TokenBag()
    private(set) var row = 0
    private(set) var restyles = 0

    init(context: DemoContext) {
        context.registered(.themeDidChange)
        bag.add(
            context.center.observe(
                DemoName.themeDidChange.name, owner: self, mainThreadOnly: context.uiRunsOnMainThread
            ) { [context] cell, _ in
                context.received(.themeDidChange)
                cell.restyles += 1
            })
    }

    func configure(row: Int) {
        self.row = row
    }

    func prepareForRemoval() {
        bag.cancelAll()
    }
}
