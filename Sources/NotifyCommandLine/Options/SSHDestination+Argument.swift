import ArgumentParser
package import NotifySession

/// `--ssh [user@]host[:port]`, parsed once by `SSHDestination(text:)`.
extension SSHDestination: ExpressibleByArgument {
    package init?(argument: String) {
        self.init(text: argument)
    }

    package var defaultValueDescription: String { text }
}
