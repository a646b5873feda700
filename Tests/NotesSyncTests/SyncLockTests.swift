import Foundation
import Testing
@testable import NotesSync

/// The sync lock, found flaky when tests ran side by side: a process another thread was starting
/// at that moment (between its fork and its exec) held a copy of the lock's descriptor, so the lock
/// outlived the sync that had ended, and the next sync of the same mirror said "another sync is
/// running".
@Suite("The sync lock")
struct SyncLockTests {
    @Test("a sync's lock is released when it ends, even while another copy of its descriptor lives on")
    func releasedDespiteACopy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) } // a leftover temporary folder is harmless
        var first: SyncLock? = try SyncLock(in: folder, mirror: folder)
        // The copy a child process gets from fork: the same open file description, kept until exec.
        let copy = dup(try #require(Self.descriptor(of: folder.appendingPathComponent("uncloudnotes-sync.lock"))))
        defer { close(copy) }
        #expect(copy >= 0)
        #expect(throws: SyncError.self, "while the first sync runs, a second is refused") { try SyncLock(in: folder, mirror: folder) }
        withExtendedLifetime(first) {}
        first = nil
        #expect(throws: Never.self, "the first sync ended: the next one takes the lock") { try SyncLock(in: folder, mirror: folder) }
    }

    /// This process's descriptor open on `file`, from /proc/self/fd.
    static func descriptor(of file: URL) -> Int32? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] // no /proc: no descriptor found, the test fails
        return names.compactMap(Int32.init).first { number in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(number)")) == file.path // closed meanwhile: not ours
        }
    }
}
