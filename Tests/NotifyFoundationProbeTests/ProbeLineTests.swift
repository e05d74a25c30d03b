import NotifyFoundationProbe
import Testing

/// bpftrace's lines, as the probes printed them for a Swift 6.3 app, parse into what they say.
@Suite struct ProbeLineTests {
    @Test func aSmallNameIsReadFromItsTwoWords() {
        #expect(
            SwiftStringWords.smallString(low: 0x4364_6944_7472_6143, high: 0xED00_0065_676E_6168) == "CartDidChange")
        #expect(SwiftStringWords.smallString(low: 0, high: 0xE000_0000_0000_0000) == "")
        #expect(SwiftStringWords.smallString(low: 0x41, high: 0xE100_0000_0000_0000) == "A")
        // A large string's words (count 29, pointer) are not a small string.
        #expect(SwiftStringWords.smallString(low: 0xD000_0000_0000_001D, high: 0x8000_55D7_E71B_6240) == nil)
    }

    @Test func anAddCarriesItsCenterObjectClosureThreeCallersAndName() {
        let line = ProbeLine(
            "A 32273 14155628226404 55a6a800ef10 0 0 55a67c9f73e0 0 7fb7b14d1266 7fb7b14d5049 55a67c9f8007 S 4364694474726143 ed000065676e6168"
        )
        let call = ProbeCall(
            thread: 32273, time: 14_155_628_226_404, center: 0x55a6_a800_ef10,
            callers: [0x7fb7_b14d_1266, 0x7fb7_b14d_5049, 0x55a6_7c9f_8007])
        #expect(
            line
                == .add(
                    call, object: nil, function: 0x55a6_7c9f_73e0, context: 0,
                    name: .text("CartDidChange", truncated: false)))
    }

    @Test func aLargeNameTakesTheRestOfTheLineAndSaysWhenItWasCut() {
        let post = ProbeLine("P 7 100 10 7f00 5500 1 2 3 L 29 SyncFinishedWithAVeryLongName")
        #expect(
            post
                == .post(
                    ProbeCall(thread: 7, time: 100, center: 0x10, callers: [1, 2, 3]),
                    object: ProbeObject(word: 0x7f00, type: 0x5500),
                    name: .text("SyncFinishedWithAVeryLongName", truncated: false)))
        let cut = ProbeLine("P 7 100 10 0 0 1 2 3 L 80 a name with spaces")
        #expect(
            cut
                == .post(
                    ProbeCall(thread: 7, time: 100, center: 0x10, callers: [1, 2, 3]), object: nil,
                    name: .text("a name with spaces", truncated: true)))
    }

    @Test func returnsRemovalsDeliveriesAndBpftraceReportsParse() {
        #expect(ProbeLine("a 5 10 1 7f00") == .added(thread: 5, time: 10, token: 1, filter: 0x7f00))
        #expect(ProbeLine("a 5 10 1") == nil)
        #expect(
            ProbeLine("R 5 20 10 1 7f00 3 4 5 N")
                == .remove(
                    ProbeCall(thread: 5, time: 20, center: 0x10, callers: [3, 4, 5]), token: 1, filter: 0x7f00,
                    name: ProbeName.none))
        #expect(
            ProbeLine("D 5 30 55a6a8011570 55a67c9f74b0 0")
                == .deliveryStart(
                    thread: 5, time: 30, context: 0x55a6_a801_1570, function: 0x55a6_7c9f_74b0, closureContext: 0))
        #expect(ProbeLine("d 5 40") == .deliveryEnd(thread: 5, time: 40))
        #expect(ProbeLine("READY") == .ready)
        #expect(ProbeLine("Lost 12 events") == .lost(count: 12))
    }

    @Test func otherTextIsNotAnEvent() {
        for text in ["", "Attaching 7 probes...", "P 7 100", "A x y", "Q 1 2 3", "S 1 2 ZZ 1 2"] {
            #expect(ProbeLine(text[...]) == nil, "\(text)")
        }
    }
}
