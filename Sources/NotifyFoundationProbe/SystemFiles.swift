import Glibc

/// Small reads of system files (`/proc`, `/sys`) without Foundation.
package enum SystemFiles {
    /// The whole file as text, nil when it cannot be opened.
    package static func text(_ path: String, limit: Int = 1 << 24) -> String? {
        bytes(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The whole file, nil when it cannot be opened.
    package static func bytes(_ path: String, limit: Int = 1 << 30) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while result.count < limit {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    /// Whether `path` exists.
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
