import Foundation
import NotifySession
import NotifySystem
import NotifyTUITestSupport
import NotifyTestSupport
import NotifyTraceViewer
import NotifyWire
import Testing

/// Reattaching on another host (`--ssh`): the look for the restarted process goes through the
/// host's listing and stream, off the calling thread. The host here is an in-memory twin whose
/// streams are recorded traces.
struct RemoteReattachTests {
    final class TwinHost: InspectionHost, @unchecked Sendable {  // `processes` and `opened` are guarded by `lock`
        private let lock = Lock()
        private var processes: [InspectableProcess] = []
        private var opened: [Int32] = []
        private var listings = 0
        let trace: String

        init(trace: String) { self.trace = trace }

        var name: String { "twin" }

        func set(_ processes: [InspectableProcess]) { lock.withLock { self.processes = processes } }

        var openedPids: [Int32] { lock.withLock { opened } }
        var listingCount: Int { lock.withLock { listings } }

        func inspectableProcesses() throws(HostFailure) -> HostListing {
            lock.withLock {
                listings += 1
                return HostListing(directory: "/d on twin", processes: processes)
            }
        }

        func open(_ process: InspectableProcess) throws(HostFailure) -> TraceReader {
            lock.withLock { opened.append(process.pid) }
            do {
                return try TraceReader.open(file: trace)
            } catch {
                throw HostFailure("\(error)")
            }
        }

        func close() {}
    }

    static func process(_ pid: Int32) -> InspectableProcess {
        InspectableProcess(pid: pid, socketPath: "/d/\(pid).sock", name: "shop", uptimeSeconds: 1)
    }

    /// Calls `attempt` until it finds something, for at most 20 s (the look runs on its own thread).
    static func attach(_ reattacher: inout Reattacher, after end: TraceStreamEnd) -> InspectableProcess?? {
        for _ in 0..<2_000 {
            if let found = reattacher.attempt(after: end) { return .some(found.process) }
            usleep(10_000)
        }
        return nil
    }

    @Test func aRestartedProcessOnTheHostIsFoundByNameAndTheExitedPidIsSkipped() throws {
        let path = temporaryPath("remote-reattach")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var bytes: [UInt8] = []
        TraceEncoder.encode(Fixture.events(), into: &bytes)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let host = TwinHost(trace: path)
        host.set([Self.process(41)])
        var reattacher = Reattacher(match: .processName("shop"), lastPid: 41, host: host)
        #expect(reattacher.attempt(after: .processExited) == nil, "the look runs on its own thread")
        // The pid that exited is still listed: it is not taken again. A second look starts only
        // after the first ended, so by then the first one opened whatever it was going to.
        for _ in 0..<2_000 where host.listingCount < 2 {
            #expect(reattacher.attempt(after: .processExited) == nil)
            usleep(10_000)
        }
        #expect(host.listingCount >= 2)
        #expect(host.openedPids.isEmpty)
        host.set([Self.process(41), Self.process(42)])
        let found = try #require(Self.attach(&reattacher, after: .processExited))
        #expect(found?.pid == 42)
        #expect(host.openedPids == [42])
        #expect(reattacher.lastPid == 42)
        #expect(reattacher.attachments == 2)
    }
}
