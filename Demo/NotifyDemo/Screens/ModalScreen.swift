/// A screen pushed over the tabs and closed again: a new instance each time it opens.
///
/// The clean contract: everything a screen registers ends in ``close()``, while the screen is still
/// alive, so nothing it registered outlives it and no removal ever misses.
protocol ModalScreen: AnyObject {
    /// What `ScreenDidAppear` reports.
    var title: String { get }
    /// Ends every registration of the screen and of what it owns.
    func close()
}
