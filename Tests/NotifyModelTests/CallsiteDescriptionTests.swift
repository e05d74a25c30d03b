import NotifyModel
import Testing

@Suite struct CallsiteDescriptionTests {
    @Test("a site reads File.swift:LINE, and its text alone when the trace gives no line")
    func lineZeroIsNotPrinted() {
        #expect(CallsiteInfo(id: 1, file: "Demo/Cart.swift", line: 42).description == "Demo/Cart.swift:42")
        let unseen = CallsiteInfo(id: 2, file: "not seen: registered before attach", line: 0)
        #expect(unseen.description == "not seen: registered before attach")
    }
}
