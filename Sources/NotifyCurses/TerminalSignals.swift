import CNcurses
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The last terminating signal received (SIGINT, SIGTERM, SIGHUP), or 0.
private let pendingSignal = Atomic<Int32>(0)
/// Set by SIGCONT: the process was stopped and resumed, and whoever ran meanwhile (the shell put
/// the terminal back in line mode) may have changed the terminal.
private let resumed = Atomic<Bool>(false)

/// Routes terminating signals through the run loop, so the terminal is restored, the demo child
/// is killed and recordings are flushed on the normal exit path.
///
/// The first SIGINT/SIGTERM/SIGHUP only sets a flag, which the loop reads every tick (its key
/// wait is bounded). A second one, or a crash signal, restores the terminal at once with
/// `endwin` and lets the signal take its default action: a broken terminal is the one outcome
/// never acceptable.
package enum TerminalSignals {
    /// The signal that asked notifytop to stop, if any.
    package static var received: Int32? {
        let value = pendingSignal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    static func install() {
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            setHandler(signal) { number in
                if pendingSignal.exchange(number, ordering: .relaxed) != 0 {
                    endwin()
                    Glibc.signal(number, SIG_DFL)
                    raise(number)
                }
            }
        }
        setHandler(SIGCONT) { _ in resumed.store(true, ordering: .relaxed) }
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            setHandler(signal) { number in
                endwin()
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    /// Routes SIGINT/SIGTERM/SIGHUP through the flag without a curses screen (batch mode), so a
    /// demo child is still stopped and recordings flushed. Opening the terminal installs the rest.
    package static func installForBatch() {
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            setHandler(signal) { number in
                if pendingSignal.exchange(number, ordering: .relaxed) != 0 {
                    Glibc.signal(number, SIG_DFL)
                    raise(number)
                }
            }
        }
    }

    /// Whether the process was resumed (SIGCONT) since the last call.
    static func takeResumed() -> Bool {
        resumed.exchange(false, ordering: .relaxed)
    }

    static func uninstall() {
        Glibc.signal(SIGCONT, SIG_DFL)
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            Glibc.signal(signal, SIG_DFL)
        }
    }

    private static func setHandler(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, nil)
    }
}
