/// A one-row chart of recent values in block glyphs (`▁▂▃▅▇`), or ASCII (`_.-=+*#@`) when the
/// terminal cannot show blocks.
package enum Sparkline {
    /// The glyphs for the last `width` values, scaled so the largest is the tallest glyph.
    ///
    /// Zero stays at the lowest glyph and any non-zero value gets at least the second, so a
    /// trickle of events is visible next to a burst. Fewer values than `width` are right-aligned
    /// on a baseline of the lowest glyph, so the meter's extent is visible from the first second.
    package static func text(_ values: [Double], width: Int, glyphs: Glyphs) -> String {
        guard width > 0 else { return "" }
        let recent = values.suffix(width)
        return bars(recent, width: width, top: recent.max() ?? 0, rounding: .up, glyphs: glyphs)
    }

    /// The glyphs for the last `width` values of a rate, on a scale that lets steady traffic read as
    /// steady: the top is the largest of the peak over all of `values` (the whole window, not only
    /// the cells shown), twice their mean, and `floor`. So a constant rate is a flat line at half
    /// height, a burst over a calm baseline reaches the top, and a trickle under `floor` stays low.
    /// Zero stays at the lowest glyph and any non-zero value gets at least the second.
    package static func rateText(_ values: [Double], width: Int, floor: Double = 1, glyphs: Glyphs) -> String {
        guard width > 0 else { return "" }
        let mean = values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
        let top = max(values.max() ?? 0, 2 * mean, floor)
        return bars(values.suffix(width), width: width, top: top, rounding: .toNearestOrAwayFromZero, glyphs: glyphs)
    }

    /// `recent` right-aligned in `width` cells, `top` the tallest glyph; zero the lowest, any
    /// non-zero value at least the second.
    private static func bars(
        _ recent: ArraySlice<Double>, width: Int, top: Double, rounding: FloatingPointRoundingRule, glyphs: Glyphs
    ) -> String {
        let levels = glyphs.sparks
        var result = String(repeating: levels[0], count: width - recent.count)
        for value in recent {
            guard top > 0, value > 0 else {
                result.append(levels[0])
                continue
            }
            let scaled = Int((value / top * Double(levels.count - 1)).rounded(rounding))
            result.append(levels[min(levels.count - 1, max(1, scaled))])
        }
        return result
    }

    /// The glyphs for the last `width` values of a level (live observers, open warnings), scaled
    /// from the smallest shown to the largest: a count that sits at 57 and then reaches 60 should
    /// show the step, not a solid bar. A flat level is a low line.
    package static func levelText(_ values: [Double], width: Int, glyphs: Glyphs) -> String {
        guard width > 0 else { return "" }
        let recent = values.suffix(width)
        let levels = glyphs.sparks
        let low = recent.min() ?? 0
        let high = recent.max() ?? 0
        var result = String(repeating: levels[0], count: width - recent.count)
        for value in recent {
            guard high > low else {
                result.append(levels[1])
                continue
            }
            let scaled = 1 + Int(((value - low) / (high - low) * Double(levels.count - 2)).rounded())
            result.append(levels[min(levels.count - 1, max(1, scaled))])
        }
        return result
    }

    /// Draws the sparkline at a position in the ``Style/sparkline`` role; `level` scales it as
    /// ``levelText(_:width:glyphs:)`` does.
    package static func draw(
        _ values: [Double], x: Int, y: Int, width: Int, glyphs: Glyphs, level: Bool = false, into canvas: inout Canvas
    ) {
        let text = level ? levelText(values, width: width, glyphs: glyphs) : text(values, width: width, glyphs: glyphs)
        canvas.write(text, x: x, y: y, maxWidth: width, style: .sparkline)
    }
}
