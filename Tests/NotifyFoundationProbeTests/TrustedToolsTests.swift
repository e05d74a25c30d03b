import Glibc
import NotifyFoundationProbe
import NotifySystem
import Testing

/// The programs run as root come from fixed, root-only places, whatever PATH says.
@Suite(.serialized) struct TrustedToolsTests {
    @Test func aProgramFirstOnPathIsNeverChosen() throws {
        var template = Array("/tmp/notifytop-path-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer {
            for name in ["bpftrace", "llvm-symbolizer"] { unlink(directory + "/" + name) }
            rmdir(directory)
        }
        for name in ["bpftrace", "llvm-symbolizer"] {
            let fd = open(directory + "/" + name, O_WRONLY | O_CREAT | O_EXCL, 0o755)
            _ = write(fd, "#!/bin/sh\n", 10)
            close(fd)
        }
        let saved = getenv("PATH").map { String(cString: $0) }
        setenv("PATH", directory + ":" + (saved ?? "/usr/bin"), 1)
        defer { if let saved { setenv("PATH", saved, 1) } }
        #expect(TrustedTools.bpftrace().map { !$0.hasPrefix(directory) } ?? true)
        #expect(TrustedTools.symbolizer().map { !$0.hasPrefix(directory) } ?? true)
        #expect(TrustedTools.bpftraceLocations.allSatisfy { $0.hasPrefix("/usr/") })
        #expect(TrustedTools.symbolizerLocations().allSatisfy { !$0.hasPrefix(directory) })
        // Even named directly, a program in a directory others can write is not trusted.
        #expect(TrustedTools.trusted(directory + "/bpftrace") == nil)
    }

    @Test func aProgramOrADirectoryNotOwnedByItsOwnerIsNotTrusted() {
        // /tmp is writable by everyone; /usr/bin/env is root's.
        #expect(TrustedTools.trusted("/tmp") == nil)
        #expect(TrustedTools.trusted("/usr/bin/env", owner: 12_345) == nil)
        if getuid() == 0 || stat_owner("/usr/bin/env") == 0 {
            #expect(TrustedTools.trusted("/usr/bin/env") == "/usr/bin/env")
        }
    }

    private func stat_owner(_ path: String) -> UInt32? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_uid : nil
    }

    /// bpftrace that exits at once is reported with its status and what it said, not as a timeout.
    @Test func bpftraceThatEndsAtOnceIsReportedWithItsStatusAndStderr() {
        let failure = FoundationProbeSession.attachFailure(
            pid: 12, termination: .exited(1), errors: "stdin:1:1-5: syntax\u{1B}[2J odd\nmore\n", timeoutSeconds: 60)
        #expect(failure.description.contains("exit status 1"))
        #expect(failure.description.contains("syntax\\x1b[2J odd | more"))
        #expect(!failure.description.contains("within 60 s"))
        #expect(!failure.description.contains("\n"))
        let killed = FoundationProbeSession.attachFailure(
            pid: 12, termination: .signaled(9), errors: "", timeoutSeconds: 60)
        #expect(
            killed.description == "bpftrace could not attach to pid 12: bpftrace ended at once (killed by signal 9)")
        let error = FoundationProbeSession.attachFailure(
            pid: 12, termination: .exited(1), errors: "ERROR: couldn't set RLIMIT_MEMLOCK\nERROR: no such file\n",
            timeoutSeconds: 60)
        #expect(error.description == "bpftrace could not attach to pid 12: ERROR: no such file")
        let timeout = FoundationProbeSession.attachFailure(pid: 12, termination: nil, errors: "", timeoutSeconds: 60)
        #expect(timeout.description.hasSuffix("no probe attached within 60 s"))
    }
}
