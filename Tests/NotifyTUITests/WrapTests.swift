@testable import NotifyTUI
import Testing

/// How `w` breaks a long cell: at spaces, splitting only words longer than a line, losing nothing.
struct WrapTests {
    @Test("lines break at spaces and keep every word whole when it fits")
    func words() {
        #expect(
            TableWidget.chunks("CartDidChange post 17 matched 2", width: 14) == [
                "CartDidChange", "post 17", "matched 2",
            ])
        #expect(TableWidget.chunks("short", width: 14) == ["short"])
    }

    @Test("a word longer than the line is split between characters, CJK by cells")
    func longWords() {
        #expect(TableWidget.chunks("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TableWidget.chunks("通知センター", width: 5) == ["通知", "セン", "ター"])
        #expect(TableWidget.chunks("x 通知センター", width: 4) == ["x", "通知", "セン", "ター"])
    }
}
