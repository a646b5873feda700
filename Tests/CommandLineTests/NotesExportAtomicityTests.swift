import Foundation
import Testing
import TestSupport

/// An export that cannot be written whole leaves the file of an earlier export exactly as it
/// was: a disk that fills up must not cost the user the copy they already had.
@Suite("notes export replaces its file whole or not at all")
struct NotesExportAtomicityTests {
    /// The program with files limited to 1 MiB (`ulimit -f`) and SIGXFSZ ignored, so a write past
    /// the limit fails with EFBIG as a full disk's fails with ENOSPC, at that point of the file.
    private static let limitedFileSize = ["/bin/sh", "-c", "trap '' XFSZ; ulimit -f 1024; exec \"$@\"", "sh"]

    @Test("a JSON or Markdown export that fails midway keeps the earlier export's file and leaves no partial file",
          arguments: [false, true])
    func failedExportKeepsTheEarlierFile(markdown: Bool) throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite").path
        // A body of 2 MB of letters: its export is past the limit, while the store is only read.
        var generator = SplitMix64(seed: 7)
        let letters = Array("abcdefghijklmnopqrstuvwxyz \n")
        let body = String((0..<2_000_000).map { _ in letters[Int(generator.next() % UInt64(letters.count))] })
        let added = try BuiltExecutable.run(["--store", store, "notes", "add", "--title", "Long", "--body", "-"], standardInput: Data(body.utf8))
        #expect(added.exitCode == 0, "\(added.standardError)")

        let exportFolder = folder.url.appendingPathComponent("export")
        try FileManager.default.createDirectory(at: exportFolder, withIntermediateDirectories: true)
        let file = exportFolder.appendingPathComponent(markdown ? "notes.md" : "notes.json")
        let earlier = Data("the earlier export, which the user keeps\n".utf8)
        try earlier.write(to: file)
        let destination = markdown ? ["--markdown", exportFolder.path] : ["--output", file.path]
        let result = try BuiltExecutable.run(["--store", store, "notes", "export"] + destination, launcher: Self.limitedFileSize)

        #expect(!result.endedBySignal && result.exitCode == 1, "\(result.exitCode) \(result.standardError)")
        #expect(result.standardError.contains(file.lastPathComponent) && result.standardError.contains("File too large"),
                "the export did not fail where the test makes it fail: \(result.standardError)")
        #expect(try Data(contentsOf: file) == earlier, "the failed export damaged the earlier one")
        let left = try FileManager.default.contentsOfDirectory(atPath: exportFolder.path).filter { $0.contains("partial") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("a file the user may write, in a folder they may not, is still exported into (written in place: nothing can be made beside it)")
    func writableFileInAReadOnlyFolder() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite").path
        let added = try BuiltExecutable.run(["--store", store, "notes", "add", "--title", "Kept", "--body", "text"])
        #expect(added.exitCode == 0, "\(added.standardError)")
        let exportFolder = folder.url.appendingPathComponent("export")
        try FileManager.default.createDirectory(at: exportFolder, withIntermediateDirectories: true)
        let file = exportFolder.appendingPathComponent("notes.json")
        try Data("the earlier export\n".utf8).write(to: file)
        #expect(chmod(file.path, 0o666) == 0 && chmod(store, 0o644) == 0 && chmod(folder.url.path, 0o755) == 0)
        #expect(chmod(exportFolder.path, 0o555) == 0)
        defer { chmod(exportFolder.path, 0o755) }
        let result = try ReadOnlyUser.run(["--store", store, "notes", "export", "--output", file.path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("\"Kept\""))
    }
}
