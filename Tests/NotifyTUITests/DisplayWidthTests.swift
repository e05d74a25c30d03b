import NotifyTUI
import Testing

struct DisplayWidthTests {
    @Test(
        "cells are counted per grapheme: ASCII 1, CJK and emoji 2, combining marks 0",
        arguments: [
            ("abc", 3), ("通知センター", 12), ("é", 1), ("e\u{301}", 1), ("🔔", 2), ("✓", 1), ("❤️", 1),
            ("한국어", 6), ("ｆｕｌｌ", 8), ("", 0), ("a\tb", 3),
        ])
    func widths(text: String, cells: Int) {
        #expect(DisplayWidth.of(text) == cells)
    }

    @Test(
        "a cluster takes the cells the terminal gives it: wcwidth of each scalar, cluster by cluster",
        arguments: [
            ("👨\u{200D}👩\u{200D}👧", 6), ("👍🏻", 4), ("🇫🇷", 2), ("a\u{0301}\u{0302}b", 2), ("\u{FFFF}", 1),
            ("\u{2066}x\u{2069}", 3), ("\u{061C}", 1), ("\u{1B}[2J", 4), ("\u{85}", 1), ("\r\n", 2),
            ("\u{E0001}", 0), ("\u{0301}", 0),
        ])
    func terminalWidths(text: String, cells: Int) {
        #expect(DisplayWidth.of(text) == cells)
        var canvas = Canvas(size: Size(width: 20, height: 1))
        let written = canvas.write(text + "|", x: 0, y: 0)
        #expect(written == cells + 1, "the canvas places what follows where the width says")
        #expect(canvas[cells, 0].character == "|")
    }

    @Test("what the terminal must not receive as it is reaches it as ?, on screen and in exports")
    func hiddenCharactersAreShownVisibly() {
        let hostile = "Did\u{2066}Save\u{2069}\u{202E}txt.exe\u{1B}[31m\u{0}\u{9B}\nEnd\u{200B}\u{FEFF}\u{FFFF}"
        let visible = DisplayWidth.visible(hostile)
        #expect(visible == "Did?Save??txt.exe?[31m???End???")
        #expect(DisplayWidth.visible("通知 e\u{301} 👍🏻") == "通知 e\u{301} 👍🏻", "printable text is kept")
        #expect(DisplayWidth.visible("👨\u{200D}👩") == "👨👩", "a joined emoji is shown side by side")
        var canvas = Canvas(size: Size(width: 40, height: 1))
        canvas.write(hostile, x: 0, y: 0)
        #expect(canvas.line(0).hasPrefix("Did?Save??txt.exe?[31m???End???"))
        let content = TableContent(view: "names", columns: ["NAME", "POSTS"], rows: [[hostile, "3"]])
        #expect(content.text == "NAME                             POSTS\n\(visible)  3\n")
        #expect(!content.csv.unicodeScalars.contains { $0.value < 0x20 && $0 != "\r" && $0 != "\n" })
        #expect(!content.csv.unicodeScalars.contains { $0.value == 0x2066 || $0.value == 0x9B })
    }

    @Test(
        "truncation cuts by cells and never splits a wide character",
        arguments: [
            ("通知センター", 7, "通知セ…"), ("notification", 6, "notif…"), ("short", 10, "short"),
            ("通知", 3, "通…"), ("ab", 0, ""),
        ])
    func truncation(text: String, width: Int, expected: String) {
        let cut = DisplayWidth.truncate(text, to: width)
        #expect(cut == expected)
        #expect(DisplayWidth.of(cut) <= width)
    }

    @Test("wrapping breaks at spaces by cells")
    func wrap() {
        #expect(
            DisplayWidth.wrap("token of a block registration was released", to: 16)
                == ["token of a block", "registration was", "released"])
        #expect(DisplayWidth.wrap("通知 センター 観察者", to: 8) == ["通知", "センター", "観察者"])
        #expect(DisplayWidth.wrap("", to: 5) == [""])
    }

    @Test("fit pads to exactly the width, left or right")
    func fit() {
        #expect(DisplayWidth.fit("通知", to: 6) == "通知  ")
        #expect(DisplayWidth.fit("42", to: 5, alignRight: true) == "   42")
        #expect(DisplayWidth.of(DisplayWidth.fit("通知センター", to: 7)) == 7)
    }
}
