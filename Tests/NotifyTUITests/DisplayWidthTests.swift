import NotifyTUI
import Testing

struct DisplayWidthTests {
    @Test(
        "cells are counted per grapheme: ASCII 1, CJK and emoji 2, combining marks 0",
        arguments: [
            ("abc", 3), ("通知センター", 12), ("é", 1), ("e\u{301}", 1), ("🔔", 2), ("✓", 1), ("❤️", 2),
            ("한국어", 6), ("ｆｕｌｌ", 8), ("", 0), ("a\tb", 2),
        ])
    func widths(text: String, cells: Int) {
        #expect(DisplayWidth.of(text) == cells)
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
