import NotifyFoundationProbe
import Testing

/// bpftrace's lines from two CPUs, interleaved out of time order, come back in time order once
/// they are old enough.
@Suite struct ProbeLineOrderTests {
    func lines(_ texts: [String]) -> [ProbeLine] { texts.map { ProbeLine($0[...])! } }

    @Test func linesPrintedLateByAnotherCPUAreReleasedInTimeOrder() {
        var order = ProbeLineOrder(holdNanoseconds: 100)
        var released: [ProbeLine] = []
        // The post at 1000 waited for its queue and resumed on another CPU, whose lines (1040 on)
        // bpftrace printed before the first CPU's (1000, 1010).
        for line in lines(["O 4 1020 f1 0", "o 4 1030", "p 1 1040", "P 1 1000 c0 0 0 fa fa 20 N", "D 1 1010 aaa f1 0"])
        {
            order.add(line, releasing: &released)
        }
        order.release(now: 1_105, into: &released)
        #expect(released.map(\.time) == [1000])
        order.release(now: 1_200, into: &released)
        #expect(released.map(\.time) == [1000, 1010, 1020, 1030, 1040])
        #expect(order.isEmpty)
    }

    @Test func equalTimesKeepTheirOrderAndALossReleasesEverythingFirst() {
        var order = ProbeLineOrder(holdNanoseconds: 1_000)
        var released: [ProbeLine] = []
        for line in lines(["d 2 50", "D 2 50 bbb f2 0", "d 1 40"]) { order.add(line, releasing: &released) }
        #expect(released.isEmpty)
        order.add(.lost(count: 3), releasing: &released)
        #expect(released == lines(["d 1 40", "d 2 50", "D 2 50 bbb f2 0"]) + [.lost(count: 3)])
        #expect(order.isEmpty)
        // Nothing is released before it is old enough, even a lone line.
        order.add(ProbeLine("d 1 5000")!, releasing: &released)
        order.release(now: 5_999, into: &released)
        #expect(released.count == 4)
        order.releaseAll(into: &released)
        #expect(released.last == ProbeLine("d 1 5000"))
    }

    @Test func aFullOrderDropsAndCountsInsteadOfGrowing() {
        var order = ProbeLineOrder(holdNanoseconds: 1_000_000, capacity: 3)
        var released: [ProbeLine] = []
        for time in 1...10 { order.add(ProbeLine("d 1 \(time)")!, releasing: &released) }
        #expect(order.dropped == 7)
        order.releaseAll(into: &released)
        #expect(released.map(\.time) == [1, 2, 3])
    }

    @Test func anExecLineIsTimed() {
        #expect(ProbeLine("X 7 1234") == .exec(thread: 7, time: 1234))
        #expect(ProbeLine("X 7 1234")?.time == 1234)
    }
}
