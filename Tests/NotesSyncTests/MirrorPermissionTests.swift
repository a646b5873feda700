import Foundation
@testable import NotesSync
import Testing
import TestSupport

/// Finding: `uncloudnotes sync` set a private umask, but a sync started by the app (`S`,
/// `[sync] on_open`) did not. The umask is now the synchronizer's own, whoever calls it.
@Suite("Mirror files are private, whoever starts the sync", .serialized)
struct MirrorPermissionTests {
    @Test("a sync started in a process with umask 022 (as the app is) leaves no file or folder of the mirror readable by others")
    func privateMirror() throws {
        let folder = try TemporaryFolder()
        let remote = try bareRemote(in: folder)
        let machine = try SyncMachine("app", in: folder)
        _ = try machine.add("Private", "not for the group", images: [try TestImages.encoded(width: 3, height: 2, format: "png")])
        let previous = umask(0o022)
        defer { umask(previous) }
        try machine.sync(remote)
        umask(0o022)
        var open: [String] = []
        let walker = try #require(FileManager.default.enumerator(at: machine.mirror, includingPropertiesForKeys: nil))
        for case let url as URL in walker {
            var status = stat()
            guard lstat(url.path, &status) == 0, (status.st_mode & S_IFMT) != S_IFLNK else { continue }
            if status.st_mode & 0o077 != 0 { open.append("\(url.path.dropFirst(machine.mirror.path.count)) \(String(status.st_mode & 0o777, radix: 8))") }
        }
        #expect(open.isEmpty, "readable by others: \(open.prefix(10))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: machine.mirror.appendingPathComponent("notes").path).count == 1)
    }
}
