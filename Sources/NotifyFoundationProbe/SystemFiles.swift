import Glibc

/// Small reads of system files (`/proc`, `/sys`) and of the files a process maps, without
/// Foundation. Only regular files are read: a FIFO, a device or a socket planted where a file is
/// expected is refused without blocking (opened non-blocking, checked with `fstat`), and no read
/// goes past its limit.
package enum SystemFiles {
    /// Largest mapped file read whole (an ELF file's symbols): a statically linked app with
    /// Foundation and its debug information fits.
    package static let mappedFileLimit = 512 << 20

    /// The whole file as text, nil when it cannot be opened or is not a regular file.
    package static func text(_ path: String, limit: Int = 1 << 24) -> String? {
        bytes(path, limit: limit).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The whole file, nil when it cannot be opened, is not a regular file or holds more than
    /// `limit` bytes. `followsLinks` is for `/proc/PID/map_files/…` and `/proc/PID/exe`, which are
    /// links by nature; elsewhere the last component must not be a link.
    package static func bytes(_ path: String, limit: Int = mappedFileLimit, followsLinks: Bool = false) -> [UInt8]? {
        let fd = openRegular(path, followsLinks: followsLinks)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            // Procfs files report size 0: the bound is on what is read.
            guard result.count + count <= limit else { return nil }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    /// A descriptor of `path` when it is a regular file, else -1. Opening never blocks (a FIFO
    /// opened non-blocking returns at once, and is then refused).
    package static func openRegular(_ path: String, followsLinks: Bool = false) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (followsLinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else { return -1 }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return -1
        }
        return fd
    }

    /// Whether `path` exists.
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
