import Foundation
import NotifyFoundationProbe
import NotifyModel
import NotifySystem
import NotifyTraceViewer
import NotifyTUI
import NotifyWire

/// `r` and `--record`: starting and stopping a recording, and reporting one that failed.
extension DashboardSession {
    /// `r`: starts a recording of the process the views show, or stops the one running.
    func toggleRecording() {
        if recorder != nil {
            stopRecording(byUser: true)
            return
        }
        if overview != nil && attachedProcess == nil {
            status.message = "cannot record: no process attached (Enter on a process attaches it)"
            return
        }
        if let probes, probes.mode == .counting || probes.requestedMode == .counting {
            status.message = "cannot record counts: a recording keeps every event (P switches the probes to events)"
            return
        }
        let path = recordingPath ?? Self.nextRecordingPath(pid: model.header?.pid ?? 0, count: &recordings)
        do {
            recorder = try SessionRecorder(path: path, memory: memory)
            status.recordingPath = path
            status.recordingFailure = nil
            status.message = "recording to \(path) (r stops)"
            logAction(.recording, "recording started: \(path)")
        } catch {
            status.message = "cannot record: \(error)"
            logAction(.recording, status.message ?? "")
        }
    }

    /// `notifytop-<pid>-<n>.ndjson` with the next `n` after `count` that nothing has yet (a link,
    /// even a dangling one, counts as taken), so an earlier run's recordings of the same pid are
    /// never overwritten; `count` becomes that `n`. The recorder creates it exclusively all the same.
    static func nextRecordingPath(
        pid: Int32, count: inout Int,
        exists: (String) -> Bool = { path in
            var info = stat()
            return lstat(path, &info) == 0
        }
    ) -> String {
        var path: String
        repeat {
            count += 1
            path = "notifytop-\(pid)-\(count).ndjson"
        } while exists(path)
        return path
    }

    /// Closes the recording started with `r`. One the user ends (`r`, quitting, attaching another
    /// process) while the stream goes on gets an end line saying so; after the stream's own end,
    /// or on a write error, the file ends where the stream or the disk left it.
    func stopRecording(byUser: Bool) {
        guard var recorder else { return }
        if byUser && !ended && recorder.failure == nil { recorder.writeUserStop() }
        recorder.flush()
        status.message = recorder.outcome
        if recorder.failure != nil {
            recordingFailed = true
            status.recordingFailure = recorder.outcome
            logAction(.recording, "recording stopped: " + recorder.outcome)
        } else {
            logAction(.recording, "recording stopped: \(recorder.byteCount) bytes in \(recorder.path)")
        }
        status.recordingPath = nil
        self.recorder = nil
    }

    /// Reports, once, a `--record` file that stopped on a write error: the header, the log and the
    /// exit status say so. Called every pass, and by the runner once the feed has stopped.
    package func checkRecording() {
        guard case .live(let feed) = source, let recording = feed.recorder, recording.failure != nil,
            reportedRecorder != ObjectIdentifier(recording)
        else { return }
        reportedRecorder = ObjectIdentifier(recording)
        recordingFailed = true
        status.recordingPath = nil
        status.recordingFailure = recording.outcome
        status.message = recording.outcome
        logAction(.recording, recording.outcome)
    }
}
