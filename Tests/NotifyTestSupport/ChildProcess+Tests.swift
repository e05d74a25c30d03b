import Glibc
package import NotifySystem

extension ChildProcess {
    /// Starts `arguments` as the package's code starts children, reading `input` and writing
    /// `output` (each /dev/null when not given; a given descriptor stays the caller's to close).
    package static func start(_ arguments: [String], input: Int32? = nil, output: Int32? = nil) throws -> ChildProcess {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard null >= 0 else { throw TraceError.system("cannot open /dev/null", errno) }
        defer { close(null) }
        return try ChildProcess(arguments, input: input ?? null, output: output ?? null, error: null)
    }

    /// The pid of a process that has exited and been reaped: one that names no process, until the
    /// kernel hands it out again.
    package static func reapedPid() throws -> Int32 {
        let child = try start(["/bin/true"])
        guard child.wait(timeoutMilliseconds: 30_000) != nil else {
            child.terminate()
            throw TraceError.invalid("/bin/true did not end within 30 s")
        }
        return child.pid
    }
}
