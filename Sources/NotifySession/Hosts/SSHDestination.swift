/// `--ssh [user@]host[:port]`: where ssh logs in, checked once when the command line is parsed.
/// An IPv6 address takes brackets when it has a port (`[::1]:2222`); a bare one (`::1`) has none.
package struct SSHDestination: Sendable, Equatable {
    /// The login name, nil for ssh's own choice (the ssh configuration's `User`, else yours).
    package var user: String?
    /// A host name, an ssh configuration alias or an address.
    package var host: String
    /// Nil for ssh's own choice (the configuration's `Port`, else 22).
    package var port: Int?

    package init(user: String? = nil, host: String, port: Int? = nil) {
        self.user = user
        self.host = host
        self.port = port
    }

    /// Parses `[user@]host[:port]`; nil when a part is empty, the port is not 1–65535, or a part
    /// could be taken for an ssh option (a leading `-`) or holds spaces or control characters.
    package init?(text: String) {
        var rest = Substring(text)
        if let at = rest.lastIndex(of: "@") {
            let user = rest[..<at]
            guard Self.isPlain(user) else { return nil }
            self.user = String(user)
            rest = rest[rest.index(after: at)...]
        }
        var portText: Substring?
        if rest.first == "[" {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { return nil }
                portText = after.dropFirst()
            }
            rest = rest[rest.index(after: rest.startIndex)..<close]
        } else if rest.filter({ $0 == ":" }).count == 1, let colon = rest.firstIndex(of: ":") {
            portText = rest[rest.index(after: colon)...]
            rest = rest[..<colon]
        }
        guard Self.isPlain(rest) else { return nil }
        host = String(rest)
        if let portText {
            guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText),
                (1...65535).contains(port)
            else { return nil }
            self.port = port
        }
    }

    private static func isPlain(_ part: Substring) -> Bool {
        !part.isEmpty && part.first != "-"
            && part.unicodeScalars.allSatisfy { !$0.properties.isWhitespace && $0.value >= 0x20 && $0.value != 0x7f }
    }

    /// As the user would type it: `user@host:port`, brackets around an IPv6 address with a port.
    package var text: String {
        let shownHost = port != nil && host.contains(":") ? "[\(host)]" : host
        return (user.map { $0 + "@" } ?? "") + shownHost + (port.map { ":\($0)" } ?? "")
    }
}
