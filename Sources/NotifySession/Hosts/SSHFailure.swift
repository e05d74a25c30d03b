import Foundation
package import NotifySystem

/// Turns how ssh ended, and what it wrote to standard error, into one line for the user.
///
/// ssh exits 255 for its own failures (the host's name, the connection, the login), and with
/// the remote command's status otherwise: 127 when the remote shell found no notifytop, 1 with
/// the relay's own one-line error.
package enum SSHFailure {
    package static func message(
        _ termination: ChildProcess.Termination?, standardError: String, answered: Bool, host: String,
        remoteNotifytop: String, timeoutSeconds: Int
    ) -> String {
        let lines = standardError.split(whereSeparator: \.isNewline).map {
            PrintableText.of(String($0)).trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        let last = lines.last
        func mentions(_ words: String...) -> Bool {
            lines.contains { line in words.contains { line.lowercased().contains($0) } }
        }
        guard let termination else {
            return "\(host) did not answer within \(timeoutSeconds) s (ssh was stopped)"
        }
        switch termination {
        case .exited(255):
            if mentions("could not resolve hostname", "name or service not known") {
                return "cannot reach \(host): unknown host name"
            }
            if mentions("connection refused") {
                return "cannot reach \(host): connection refused (no ssh server on that port)"
            }
            if mentions("timed out") { return "cannot reach \(host): the connection timed out" }
            if mentions("no route to host", "network is unreachable") {
                return "cannot reach \(host): no route to host"
            }
            if mentions("host key verification failed", "remote host identification has changed") {
                return "\(host)'s host key is unknown or has changed: check and accept it once with plain ssh"
            }
            if mentions("permission denied", "too many authentication failures") {
                return "\(host) refused the login (permission denied): notifytop never prompts, so ssh "
                    + "needs a key the host accepts (one with a passphrase loaded in ssh-agent)"
            }
            return "ssh \(host) failed" + (last.map { ": \($0)" } ?? " (exit status 255)")
        case .exited(127), .exited(126):
            return "notifytop is not installed on \(host) (\"\(remoteNotifytop)\" did not run there): "
                + "install it there, or give its path with --remote-notifytop"
        case .exited(let status):
            if let relayed = lines.last(where: { $0.hasPrefix("notifytop: ") }) {
                return "\(host): " + relayed.dropFirst("notifytop: ".count)
            }
            if status == 64 && mentions("relay") {
                return "the notifytop on \(host) does not know --relay (too old for --ssh): update it there"
            }
            if answered {
                return "\(host): \(remoteNotifytop) --relay gave an answer this notifytop cannot read "
                    + "(another version?)"
            }
            if status == 0 { return "\(host): \(remoteNotifytop) --relay ended without sending anything" }
            return "ssh \(host) failed" + (last.map { ": \($0)" } ?? " (\(termination))")
        case .signaled:
            return "ssh \(host) failed (\(termination))" + (last.map { ": \($0)" } ?? "")
        }
    }
}
