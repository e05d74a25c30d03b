import NotifyDemo
import Testing

/// `notify-demo --duration`: plain seconds as before, or a time with a unit.
struct DemoDurationTests {
    @Test func takesSecondsOrAUnit() {
        #expect(DemoDuration(argument: "30")?.seconds == 30)
        #expect(DemoDuration(argument: "1.5s")?.seconds == 1.5)
        #expect(DemoDuration(argument: "250ms")?.seconds == 0.25)
        #expect(DemoDuration(argument: "2M")?.seconds == 120)
    }

    @Test func refusesWhatIsNotAPositiveTime() {
        for bad in ["", "0", "0s", "-1", "1h", "s", "nan", "inf", "1e3", "2 s", "forever"] {
            #expect(DemoDuration(argument: bad) == nil, "\(bad)")
        }
    }
}
