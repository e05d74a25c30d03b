import NotifyTUI
import Testing

struct CanvasTests {
    @Test("wide characters take two cells and lines show them once")
    func wide() {
        var canvas = Canvas(size: Size(width: 10, height: 1))
        let used = canvas.write("通知ab", x: 1, y: 0, style: .title)
        #expect(used == 6)
        #expect(canvas.lines == [" 通知ab   "])
        #expect(canvas[2, 0].isContinuation)
        #expect(canvas.styleLines == [" TTTTTT   "])
    }

    @Test("a wide character that does not fit at the edge becomes a space")
    func edge() {
        var canvas = Canvas(size: Size(width: 5, height: 1))
        canvas.write("abcd通", x: 0, y: 0)
        #expect(canvas.lines == ["abcd "])
    }

    @Test("overwriting half of a wide character blanks the other half")
    func overwrite() {
        var canvas = Canvas(size: Size(width: 4, height: 1))
        canvas.write("通知", x: 0, y: 0)
        canvas.write("x", x: 1, y: 0)
        #expect(canvas.lines == [" x知"])
        #expect(DisplayWidth.of(canvas.lines[0]) == 4)
    }

    @Test("control characters are shown as ? and cannot move the cursor")
    func controls() {
        var canvas = Canvas(size: Size(width: 8, height: 1))
        canvas.write("a\nb\u{1B}[2J", x: 0, y: 0)
        #expect(canvas.lines == ["a?b?[2J "])
    }

    @Test("writes are clipped to maxWidth and to the canvas")
    func clipping() {
        var canvas = Canvas(size: Size(width: 6, height: 2))
        canvas.write("abcdefgh", x: 2, y: 1, maxWidth: 3)
        canvas.write("zz", x: 0, y: 5)
        #expect(canvas.lines == ["      ", "  abc "])
        #expect(canvas.plainText == "\n  abc")
    }
}
