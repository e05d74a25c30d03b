import NotifyModel
import NotifyTUI
import NotifyTUITestSupport
import Testing

struct HeaderTests {
    @Test("the model keeps the slowest handler per second: the header's slowest sparkline")
    func slowestHistory() {
        var model = Fixture.data().model
        #expect(model.overview.slowestHandlerHistory == [150_000_000])
        model.tick(now: model.now + 3_000_000_000)
        #expect(
            model.overview.slowestHandlerHistory.prefix(2) == [150_000_000, 0], "a second without deliveries reads 0")
    }

    @Test("the header shows posts, deliveries, the slowest handler and notifytop's own CPU, each with a sparkline")
    func meters() {
        var data = Fixture.data()
        data.status.selfCPU = 2.5
        data.status.selfCPUHistory = [0.5, 1, 4, 2.5]
        let (canvas, _) = Dashboard.render(
            data, view: ViewState(), size: Size(width: 120, height: 30), glyphs: .unicode)
        let row = canvas.lines[1]
        for label in ["posts/s", "deliv/s", "slowest  150ms ", "notifytop cpu   2.5% "] {
            #expect(row.contains(label), "\(label) in \(row)")
        }
        #expect(row.contains("notifytop cpu   2.5% ▁▁▁▁▁▁▂▃█▆"), "\(row)")
        #expect(canvas.styleLines[1].filter { $0 == "~" }.count >= 4 * 10)
        // Narrow: the figures stay, the CPU still named as notifytop's.
        let (narrow, _) = Dashboard.render(data, view: ViewState(), size: Size(width: 80, height: 24), glyphs: .unicode)
        #expect(narrow.lines[1].contains("notifytop cpu   2.5%"), "\(narrow.lines[1])")
        #expect(narrow.lines[1].contains("slowest  150ms"))
    }

    @Test("over ssh the header names the host the process runs on, attached or over the overview")
    func sshHost() {
        var data = Fixture.data()
        let size = Size(width: 120, height: 30)
        let (local, _) = Dashboard.render(data, view: ViewState(), size: size, glyphs: .unicode)
        #expect(local.lines[0].hasPrefix(" notifytop  ShopDemo pid 4242  traced"))
        data.status.host = "deploy@stage"
        let (remote, _) = Dashboard.render(data, view: ViewState(), size: size, glyphs: .unicode)
        #expect(
            remote.lines[0].hasPrefix(" notifytop  ShopDemo pid 4242 on deploy@stage  traced"), "\(remote.lines[0])")
        data.model = InspectorState()
        data.status.mode = .connecting("connecting to pid 4242")
        let (connecting, _) = Dashboard.render(data, view: ViewState(), size: size, glyphs: .unicode)
        #expect(connecting.lines[0].contains("connecting to pid 4242 on deploy@stage"), "\(connecting.lines[0])")
    }

    @Test("counts keep each second's level, repeated through quiet seconds: the header's count sparklines")
    func countHistories() {
        var data = Fixture.data()
        let live = UInt64(data.model.overview.liveRegistrations)
        let start = data.model.now
        // The fixture's own second closed at its last event's clock; three quiet seconds follow.
        #expect(data.model.overview.observerHistory == [live])
        data.model.tick(now: start)
        data.model.tick(now: start + 3_000_000_000)
        let overview = data.model.overview
        #expect(overview.observerHistory == [live, live, live, live])
        #expect(overview.nameHistory.count == 4 && overview.threadHistory == [3, 3, 3, 3])
        #expect(overview.findingHistory.allSatisfy { $0 == UInt64(overview.openFindings.values.reduce(0, +)) })
        let (canvas, _) = Dashboard.render(
            data, view: ViewState(), size: Size(width: 120, height: 30), glyphs: .unicode)
        #expect(
            canvas.lines[2].contains("observers \(live) ▁▁▁▁▂▂▂▂  "), "a flat level is a low line: \(canvas.lines[2])")
        #expect(
            Sparkline.levelText([57, 57, 60, 58], width: 5, glyphs: .unicode) == "▁▂▂█▄",
            "steps show between the smallest and largest")
        let (narrow, _) = Dashboard.render(data, view: ViewState(), size: Size(width: 80, height: 24), glyphs: .unicode)
        #expect(narrow.lines[2].hasPrefix("observers \(live)  names"), "no room: figures only")
        let (tight, _) = Dashboard.render(data, view: ViewState(), size: Size(width: 62, height: 24), glyphs: .unicode)
        #expect(tight.lines[2].hasPrefix("obs \(live)  names"), "short labels: \(tight.lines[2])")
        #expect(tight.lines[2].contains("delay 500ms"), "every figure still shows: \(tight.lines[2])")
    }
}
