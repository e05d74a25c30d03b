import Foundation
import NotifySystem
import NotifyTestSupport
import Testing

/// The socket directory is used only when it is this user's private directory, and only this
/// user's live sockets are listed or removed.
@Suite("Socket directory safety", .timeLimit(.minutes(10)))
struct SocketDirectoryTests {
    final class Scratch {
        let path = temporaryPath("dirtest")
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = lstat(path, &info)
        return info.st_mode & 0o777
    }

    private func refusal(_ directory: SocketDirectory) -> String? {
        do {
            try directory.prepare()
            return nil
        } catch {
            return error.description
        }
    }

    @Test("a directory created now is 0700")
    func createsPrivateDirectory() throws {
        let scratch = Scratch()
        try SocketDirectory(path: scratch.path).prepare()
        #expect(mode(scratch.path) == 0o700)
    }

    @Test("a symbolic link is refused, and the directory it points to is left as it was")
    func symlinkRefused() throws {
        let scratch = Scratch()
        try #require(mkdir(scratch.path, 0o755) == 0)
        chmod(scratch.path, 0o755)
        let link = scratch.path + "/link"
        try #require(mkdir(scratch.path + "/victim", 0o755) == 0)
        chmod(scratch.path + "/victim", 0o755)
        try #require(symlink(scratch.path + "/victim", link) == 0)
        let message = try #require(refusal(SocketDirectory(path: link)))
        #expect(message.hasPrefix("\(link) is a symbolic link"))
        #expect(mode(scratch.path + "/victim") == 0o755)
        #expect(SocketDirectory(path: link).inspectableProcesses().isEmpty)
    }

    @Test("a path that is not a directory is refused")
    func fileRefused() throws {
        let scratch = Scratch()
        try #require(FileManager.default.createFile(atPath: scratch.path, contents: Data()))
        #expect(
            refusal(SocketDirectory(path: scratch.path)) == "\(scratch.path) exists but is not a directory: "
                + "remove it, or set XDG_RUNTIME_DIR to a private directory")
    }

    @Test("another user's directory is refused and not changed")
    func otherOwnerRefused() throws {
        let scratch = Scratch()
        let path: String
        if getuid() == 0 {
            try #require(mkdir(scratch.path, 0o700) == 0)
            try #require(chown(scratch.path, 4242, 4242) == 0)
            path = scratch.path
        } else {
            path = "/"  // root's
        }
        let message = try #require(refusal(SocketDirectory(path: path)))
        #expect(message.hasPrefix("\(path) belongs to uid"))
        if getuid() == 0 {
            var info = stat()
            _ = lstat(path, &info)
            #expect(info.st_uid == 4242)
            #expect(mode(path) == 0o700)
        }
    }

    @Test("a directory of this user that others can enter is refused, not chmod'ed")
    func openDirectoryRefused() throws {
        let scratch = Scratch()
        try #require(mkdir(scratch.path, 0o700) == 0)
        chmod(scratch.path, 0o755)
        let message = try #require(refusal(SocketDirectory(path: scratch.path)))
        #expect(message.contains("chmod 700 \(scratch.path)"))
        #expect(mode(scratch.path) == 0o755)
    }

    @Test(
        "only this user's sockets of live processes are listed; a regular file named 12.sock is neither listed nor removed"
    )
    func listsOnlyLiveSockets() throws {
        let scratch = Scratch()
        let directory = SocketDirectory(path: scratch.path)
        try directory.prepare()
        let regular = directory.socketPath(for: 12)
        try #require(FileManager.default.createFile(atPath: regular, contents: Data()))
        try #require(symlink(regular, directory.socketPath(for: 13)) == 0)
        var dead: Int32 = 999_999
        while kill(dead, 0) == 0 || errno == EPERM { dead -= 1 }
        _ = try UnixSocket.listen(at: directory.socketPath(for: dead))
        let own = try UnixSocket.listen(at: directory.socketPath(for: getpid()))
        defer { own.close() }
        #expect(directory.inspectableProcesses().map(\.pid) == [getpid()])
        #expect(FileManager.default.fileExists(atPath: regular))
        #expect(!FileManager.default.fileExists(atPath: directory.socketPath(for: dead)))
    }
}
