import NotifySession
import Testing

/// `notifytop --demo` watches the demo from its first event: the child waits for its viewer.
struct DemoArgumentsTests {
    @Test("the demo is asked to wait for its viewer, unless the user chose the wait")
    func demoWaitsForItsViewer() {
        #expect(DemoProcess.watchedFromTheStart([]) == ["--wait-for-viewer", "10"])
        #expect(
            DemoProcess.watchedFromTheStart(["--scenario", "stress"])
                == ["--wait-for-viewer", "10", "--scenario", "stress"])
        #expect(DemoProcess.watchedFromTheStart(["--wait-for-viewer", "2"]) == ["--wait-for-viewer", "2"])
        #expect(DemoProcess.watchedFromTheStart(["--wait-for-viewer=2"]) == ["--wait-for-viewer=2"])
    }
}
