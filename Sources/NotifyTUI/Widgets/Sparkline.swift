/// A one-row chart of recent values in block glyphs (`▁▂▃▅▇`), or ASCII (`_.-=+*#@`) when the
/// terminal cannot show blocks.
public enum Sparkline {
    /// The glyphs for the last `width` values, scaled so the largest is the tallest glyph.
    ///
    /// Zero stays at the lowest glyph and any non-zero value gets at least the second, so a
    /// trickle of events is visible next to a burst. Fewer values than `width` are right-aligned
    /// on a baseline of the lowest glyph, so the meter's extent is visible from the first second.
    public static func text(_ values: [Double], width: Int, glyphs: Glyphs) -> String {
        guard width > 0 else { return "" }
        let recent = values.suffix(width)
        let peak = recent.max() ?? 0
        let levels = glyphs.sparks
        var result = String(repeating: levels[0], count: width - recent.count)
        for value in recent {
            guard peak > 0, value > 0 else {
                result.append(levels[0])
                continue
            }
            let scaled = Int((value / peak * Double(levels.count - 1)).rounded(.up))
            result.append(levels[min(levels.count - 1, max(1, scaled))])
        }
        return result
    }

    /// Draws the sparkline at a position in the ``Style/sparkline`` role.
    public static func draw(_ values: [Double], x: Int, y: Int, width: Int, glyphs: Glyphs, into canvas: inout Canvas) {
        canvas.write(text(values, width: width, glyphs: glyphs), x: x, y: y, maxWidth: width, style: .sparkline)
    }
}
