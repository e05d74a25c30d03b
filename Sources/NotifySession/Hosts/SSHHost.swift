#if canImport(Glibc)
import Glibc
#endif
package import NotifySystem
package import NotifyTraceViewer

/// Another machine, reached with the OpenSSH client (`ssh`) as a child process, with the user's
/// own ssh configuration, keys and agent. On that host, `notifytop --relay` lists the processes
/// and copies one's trace stream to ssh's standard output (see ``Relay``); the app opens no port.
///
/// ssh runs in batch mode: it never asks for a password or a passphrase (a key with a passphrase
/// must be in ssh-agent), and failures come back as one line each (see ``SSHFailure``).
package final class SSHHost: InspectionHost, @unchecked Sendable {  // `streams` is only touched under `lock`
    /// How ssh is run.
    package struct Configuration: Sendable, Equatable {
        /// Where to log in.
        package var destination: SSHDestination
        /// `-o` options for ssh (`IdentityFile=…`); they come first, so they win over notifytop's.
        package var options: [String] = []
        /// An ssh configuration file read instead of `~/.ssh/config` (`ssh -F`).
        package var configFile: String?
        /// The notifytop command on the remote host (on its PATH, or a path there).
        package var remoteNotifytop = "notifytop"
        /// The ssh client.
        package var program = "ssh"
        /// ssh's `ConnectTimeout`; listing gives up twice as long after that.
        package var connectTimeoutSeconds = 10
        /// Where ssh keeps one connection that the listing and the streams share (OpenSSH's
        /// `ControlMaster`): one login, and a listing after the first costs a round trip, not a
        /// handshake. Nil: a connection per command.
        package var controlPath: String?

        package init(destination: SSHDestination) {
            self.destination = destination
        }
    }

    package let configuration: Configuration
    private let lock = Lock()
    private var streams: [Stream] = []

    package init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// A control path of this notifytop's own in the private socket directory (so another
    /// notifytop's `close` never ends this one's connection), or nil when that directory cannot
    /// be used. Short: a Unix socket path holds 107 bytes, and ssh appends 17 while binding.
    package static func privateControlPath(in directory: SocketDirectory = .standard) -> String? {
        guard (try? directory.prepare()) != nil else { return nil }
        let path = directory.path + "/ssh-\(getpid())-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        guard path.utf8.count < 80, !path.contains(where: { $0 == "%" || $0.isWhitespace }) else { return nil }
        return path
    }

    deinit { close() }

    package var name: String { configuration.destination.text }

    /// The ssh command line that runs `remote` (notifytop's arguments) on the host.
    ///
    /// After the user's `-o` options (ssh keeps the first value it sees for an option):
    /// `BatchMode=yes` (never prompt), a connect timeout, keep-alives that end a session whose
    /// host vanished within 15 s, and no forwarding of the agent, X11 or ports.
    package func command(_ remote: [String]) -> [String] {
        let destination = configuration.destination
        var words = [configuration.program]
        if let file = configuration.configFile { words += ["-F", file] }
        for option in configuration.options { words += ["-o", option] }
        words += [
            "-T", "-x", "-a",
            "-o", "BatchMode=yes",
            "-o", "ConnectTimeout=\(configuration.connectTimeoutSeconds)",
            "-o", "ServerAliveInterval=5",
            "-o", "ServerAliveCountMax=3",
            "-o", "ClearAllForwardings=yes",
        ]
        if let path = configuration.controlPath {
            // The first command starts the shared connection, which stays until close() or 30 s unused.
            words += ["-o", "ControlMaster=auto", "-o", "ControlPath=\(path)", "-o", "ControlPersist=30"]
        }
        if let port = destination.port { words += ["-p", String(port)] }
        if let user = destination.user { words += ["-l", user] }
        words += ["--", destination.host, Self.shellCommand([configuration.remoteNotifytop] + remote)]
        return words
    }

    /// One remote shell command line from words, each quoted unless it is plainly safe (a
    /// leading `~` stays unquoted, so `~/bin/notifytop` means the remote home).
    package static func shellCommand(_ words: [String]) -> String {
        words.map { word in
            let safe =
                !word.isEmpty
                && word.unicodeScalars.allSatisfy { scalar in
                    scalar.isASCII
                        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                            || "@%+=:,./_~-".unicodeScalars.contains(scalar))
                }
            return safe ? word : "'" + word.replacing("'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }

    package func inspectableProcesses() throws(HostFailure) -> HostListing {
        let output: ChildProcess.Output
        do {
            output = try ChildProcess.run(
                command(["--relay", "--list"]), timeoutMilliseconds: 2_000 * configuration.connectTimeoutSeconds,
                maximumOutputBytes: Relay.maximumListingBytes + 1)
        } catch {
            throw HostFailure("cannot run ssh: \(error)")
        }
        if output.exceededOutputLimit {
            throw HostFailure(
                "\(name) sent over \(Relay.maximumListingBytes >> 20) MiB for a listing and was stopped: "
                    + "not notifytop's answer (is \(configuration.remoteNotifytop) on that host notifytop?)")
        }
        let text = String(decoding: output.standardOutput, as: UTF8.self)
        if output.termination == .exited(0), let listing = try Relay.parseListing(text, host: name) { return listing }
        throw failure(output.termination, standardError: output.standardError, answered: !text.isEmpty)
    }

    /// Starts `ssh HOST notifytop --relay --pid N`, its standard output one end of a socket pair
    /// whose other end the reader reads, and waits for the first bytes of the stream, so that a
    /// failure is reported here, as one line, and not as an empty stream.
    package func open(_ process: InspectableProcess) throws(HostFailure) -> TraceReader {
        let stream: Stream
        do {
            stream = try Stream(command(["--relay", "--pid", String(process.pid)]))
        } catch {
            throw HostFailure("cannot run ssh: \(error)")
        }
        switch stream.awaitFirstBytes(timeoutMilliseconds: 2_000 * configuration.connectTimeoutSeconds) {
        case .ready:
            lock.withLock { streams.append(stream) }
            return TraceReader(source: .socket(stream.socket), origin: "\(name) pid \(process.pid)")
        case .ended(let termination):
            let error = stream.standardError()
            stream.close()
            throw failure(termination, standardError: error, answered: false)
        }
    }

    /// Why ssh ended a stream it carried (the host vanished: "Timeout, server not responding"),
    /// as one line; nil when every stream's ssh runs or ended cleanly, since the remote process's
    /// own end travels in the stream. `waitMilliseconds` gives an ssh that is exiting time to.
    package func endedStreamFailure(waitMilliseconds: Int = 0) -> String? {
        let all = lock.withLock { streams }
        for stream in all {
            guard let ended = stream.child.wait(timeoutMilliseconds: waitMilliseconds), ended != .exited(0) else {
                continue
            }
            return failure(ended, standardError: stream.standardError(), answered: false).description
        }
        return nil
    }

    package func close() {
        let all = lock.withLock {
            defer { streams = [] }
            return streams
        }
        for stream in all { stream.close() }
        if let path = configuration.controlPath, access(path, F_OK) == 0 {
            _ = try? ChildProcess.run(
                [
                    configuration.program, "-o", "ControlPath=\(path)", "-O", "exit", "--",
                    configuration.destination.host,
                ],
                timeoutMilliseconds: 5_000)
        }
    }

    private func failure(_ termination: ChildProcess.Termination?, standardError: [UInt8], answered: Bool)
        -> HostFailure
    {
        HostFailure(
            SSHFailure.message(
                termination, standardError: String(decoding: standardError, as: UTF8.self), answered: answered,
                host: name, remoteNotifytop: configuration.remoteNotifytop,
                timeoutSeconds: 2 * configuration.connectTimeoutSeconds))
    }

    /// One running `ssh … --relay --pid N`.
    final class Stream {
        let child: ChildProcess
        /// The viewer's end of the socket pair; ssh writes into the other.
        let socket: UnixSocket
        /// ssh's standard input: closing it ends the remote relay (it watches its input).
        private var input: Int32
        /// ssh's standard error (and the relay's), read when the stream fails.
        private var errorOutput: Int32

        enum Start { case ready, ended(ChildProcess.Termination?) }

        init(_ arguments: [String]) throws(TraceError) {
            var pair: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
                throw .system("socketpair", errno)
            }
            let inputPipe: [Int32]
            let errorPipe: [Int32]
            do {
                inputPipe = try ChildProcess.makePipe()
            } catch {
                Self.closeAll(pair)
                throw error
            }
            do {
                errorPipe = try ChildProcess.makePipe()
            } catch {
                Self.closeAll(pair + inputPipe)
                throw error
            }
            do {
                child = try ChildProcess(arguments, input: inputPipe[0], output: pair[1], error: errorPipe[1])
            } catch {
                Self.closeAll(pair + inputPipe + errorPipe)
                throw error
            }
            Self.closeAll([pair[1], inputPipe[0], errorPipe[1]])
            socket = UnixSocket(descriptor: pair[0])
            input = inputPipe[1]
            errorOutput = errorPipe[0]
        }

        deinit { close() }

        private static func closeAll(_ descriptors: [Int32]) {
            for fd in descriptors where fd >= 0 { Glibc.close(fd) }
        }

        /// Ready once a byte is waiting on the socket; ended when ssh closed it or exited first.
        func awaitFirstBytes(timeoutMilliseconds: Int) -> Start {
            var waited = 0
            while waited < timeoutMilliseconds {
                var poller = pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, 50) > 0 {
                    var byte: UInt8 = 0
                    if recv(socket.descriptor, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) == 1 { return .ready }
                    return .ended(child.wait(timeoutMilliseconds: 2_000))
                }
                if let ended = child.termination() { return .ended(ended) }
                waited += 50
            }
            child.terminate(graceMilliseconds: 200)
            return .ended(nil)
        }

        /// What ssh wrote to standard error so far (it has ended, or this waits for nothing).
        func standardError() -> [UInt8] {
            guard errorOutput >= 0 else { return [] }
            _ = fcntl(errorOutput, F_SETFL, fcntl(errorOutput, F_GETFL) | O_NONBLOCK)
            var collected: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while collected.count < 64 * 1024 {
                let count = buffer.withUnsafeMutableBytes { read(errorOutput, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                collected += buffer[0..<count]
            }
            return collected
        }

        /// Closes ssh's input (the relay ends), then stops ssh if it does not end by itself.
        func close() {
            if input >= 0 {
                Glibc.close(input)
                input = -1
            }
            if child.wait(timeoutMilliseconds: 500) == nil { child.terminate(graceMilliseconds: 500) }
            if errorOutput >= 0 {
                Glibc.close(errorOutput)
                errorOutput = -1
            }
        }
    }
}
