/// A terminal in memory: records every presented frame and returns scripted keys.
///
/// It is to the dashboard what `EmbeddedChannel` is to NIO: the run loop, the reducer and every
/// view run against it unchanged, so tests drive the whole UI with a list of keys and assert on
/// frames. Batch mode uses it too, printing the frames it records.
///
/// ```swift
/// let terminal = InMemoryTerminal(size: Size(width: 80, height: 24), keys: [.char("2"), .char("q")])
/// // run the loop against `terminal`, then:
/// terminal.frames.last?.lines
/// ```
package final class InMemoryTerminal: TerminalBackend {
    /// The size frames are rendered at; tests may change it and script a ``Key/resize``.
    package var size: Size
    /// Glyphs to render with.
    package var glyphs: Glyphs
    /// The colour depth reported to the renderer.
    package var colorDepth: ColorDepth
    /// The theme last set; frames are recorded as roles, so it changes no frame.
    package private(set) var theme: Theme = .standard
    /// Keys still to be returned, first first.
    package var pendingKeys: [Key]
    /// Every frame that differed from the one before, in order.
    package private(set) var frames: [Canvas] = []
    /// How many times ``present(_:)`` was called, changed or not.
    package private(set) var presentCalls = 0
    /// How many rows were rewritten over all presents: the diffing a real backend would do.
    package private(set) var rowsWritten = 0
    /// Whether ``shutdown()`` ran.
    package private(set) var isShutDown = false
    /// Called when the script runs out of keys; return nil to keep timing out.
    package var onKeysExhausted: (() -> Key?)?
    private var forceFull = false

    /// Creates a terminal of the given size with a script of keys.
    package init(size: Size, keys: [Key] = [], glyphs: Glyphs = .unicode, colorDepth: ColorDepth = .full) {
        self.size = size
        self.pendingKeys = keys
        self.glyphs = glyphs
        self.colorDepth = colorDepth
    }

    /// The last frame presented.
    package var lastFrame: Canvas? { frames.last }

    /// Records the frame if it differs from the previous one, counting changed rows.
    package func present(_ canvas: Canvas) {
        presentCalls += 1
        guard let previous = frames.last, previous.size == canvas.size, !forceFull else {
            forceFull = false
            frames.append(canvas)
            rowsWritten += canvas.size.height
            return
        }
        var changed = 0
        for y in 0..<canvas.size.height where previous.row(y) != canvas.row(y) {
            changed += 1
        }
        if changed > 0 {
            frames.append(canvas)
            rowsWritten += changed
        }
    }

    /// Pops the next scripted key; never sleeps.
    package func readKey(timeoutMilliseconds: Int) -> Key? {
        if pendingKeys.isEmpty { return onKeysExhausted?() }
        return pendingKeys.removeFirst()
    }

    /// Makes the next present count as a full repaint.
    package func invalidate() {
        forceFull = true
    }

    /// Records the theme and, like a real backend, repaints everything next time.
    package func setTheme(_ theme: Theme) {
        self.theme = theme
        forceFull = true
    }

    /// Marks the terminal as restored.
    package func shutdown() { isShutDown = true }
}
