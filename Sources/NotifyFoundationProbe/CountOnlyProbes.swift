import Glibc
import NotifySystem

/// The floor under any probe design: the counting mode's three probes (a post's entry, each
/// observer's closure, the post's return), each only counting into a map. What a post costs with
/// them is the traps alone; `notify-bench` measures it beside the two modes.
package final class CountOnlyProbes {
    private let bpftrace: ChildProcess

    /// Attaches them to process `pid` and waits until they are (at most `timeoutSeconds`).
    package init(pid: Int32, timeoutSeconds: Int = 60) throws(FoundationAttachError) {
        let (_, library) = try FoundationPreflight.check(pid: pid)
        let path = library.mapFilesPath(pid: pid)
        guard ProbeProgram.isSafeFilePath(path), let tool = TrustedTools.bpftrace() else {
            throw FoundationAttachError("no trusted bpftrace, or \(VisibleText.line(path)) is not a map_files path")
        }
        let filter = "/pid == \(pid)/"
        let text = [
            "BEGIN { printf(\"READY\\n\"); }",
            "uprobe:\(path):\"\(FoundationSymbols.post)\" \(filter) { @n[0] = count(); }",
            "uprobe:\(path):\"\(FoundationSymbols.delivery)\" \(filter) { @n[1] = count(); }",
            "uretprobe:\(path):\"\(FoundationSymbols.post)\" \(filter) { @n[2] = count(); }",
        ].joined(separator: "\n")
        var lines: LineReader
        do {
            let output = try ChildProcess.makePipe()
            let null = open("/dev/null", O_RDWR | O_CLOEXEC)
            bpftrace = try ChildProcess(
                [tool, "-e", text], input: null, output: output[1], error: null, environment: TrustedTools.environment)
            close(null)
            close(output[1])
            lines = LineReader(descriptor: output[0])
        } catch {
            throw FoundationAttachError("cannot start bpftrace: \(error)")
        }
        defer { lines.close() }
        for _ in 0..<timeoutSeconds {
            while let line = lines.next(timeoutMilliseconds: 1_000) {
                if line == "READY" { return }
            }
            if lines.ended || bpftrace.termination() != nil { break }
        }
        bpftrace.terminate(graceMilliseconds: 500)
        throw FoundationAttachError("the count-only probes did not attach to pid \(pid)")
    }

    /// Detaches them.
    package func stop() { bpftrace.terminate(graceMilliseconds: 500) }

    deinit { bpftrace.terminate(graceMilliseconds: 500) }
}
