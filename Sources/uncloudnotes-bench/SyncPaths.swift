import Foundation
import ManagedStore
import UnCloudNotesKit

/// Issue 25's sync through git, whole process as the user waits for it: `uncloudnotes sync`
/// with a local bare repository as the remote, against what a user of a plain folder of notes
/// does instead (as nb and pass users do), done well: the same files committed and pushed by
/// git in one shell command. The first sync of a store (every note, one image in ten, each
/// image different) and a sync after one note changed; peak memory of the first sync at two
/// sizes shows whether it grows with the store.
enum SyncPaths {
    struct Result: Codable {
        var notes: Int
        var images: Int
        /// `uncloudnotes sync --remote R`: export, fetch, merge, apply, push.
        var firstSync: Stats
        /// `git init; git add -A; git commit; git push` of the same files.
        var firstSyncBaseline: Stats
        /// `uncloudnotes sync` after one note's edit (made by `notes edit`, not timed).
        var oneNote: Stats
        /// `git commit -a; git pull; git push` after one file's edit.
        var oneNoteBaseline: Stats
        /// `uncloudnotes sync` again, with nothing to send or receive.
        var noOp: Stats?
        /// `git pull; git push` with nothing to move.
        var noOpBaseline: Stats?
        /// The first sync's peak resident memory (the program's own, not git's).
        var firstSyncPeakMemory: Int64
        /// A new, empty store's first sync from that remote: it receives every note.
        var receive: Stats?
        /// The receiving sync's peak resident memory.
        var receivePeakMemory: Int64?
        /// Issue 35: the same first sync with `--encrypt` (every file age-encrypted), to its own remote.
        var encryptedFirstSync: Stats?
        /// `uncloudnotes sync` of an encrypted mirror after one note's edit.
        var encryptedOneNote: Stats?
        /// The encrypted first sync's peak resident memory.
        var encryptedFirstSyncPeakMemory: Int64?
    }

    static let imageEvery = 10

    static func measure(sizes: [Int], runs: Int, scratch: URL, log: (String) -> Void) throws -> [Result] {
        let app = try ChildProcess.sibling("uncloudnotes")
        return try sizes.map { notes in
            log("sync: a first sync of \(notes) notes, then one changed note")
            let folder = scratch.appendingPathComponent("sync-\(notes)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Scratch: removing it is best effort.
            defer { try? FileManager.default.removeItem(at: folder) }
            let master = folder.appendingPathComponent("master.sqlite")
            let images = try makeStore(at: master, notes: notes)
            var timings = RunLog()
            var peaks: [Int64] = []
            var receivePeaks: [Int64] = []
            var encryptedPeaks: [Int64] = []
            for run in 0..<runs {
                let runFolder = folder.appendingPathComponent("run-\(run)")
                try FileManager.default.createDirectory(at: runFolder, withIntermediateDirectories: true)
                // The run's scratch copies: one left behind costs disk, not a result.
                defer { try? FileManager.default.removeItem(at: runFolder) }
                let measured = try measureEngine(app: app, master: master, in: runFolder)
                timings.add(measured.first, to: "first")
                timings.add(measured.oneNote, to: "one")
                timings.add(measured.noOp, to: "no-op")
                timings.add(measured.receive, to: "receive")
                receivePeaks.append(measured.receivePeak)
                peaks.append(measured.peak)
                let encrypted = try measureEncrypted(app: app, master: master, in: runFolder)
                timings.add(encrypted.first, to: "encrypted first")
                timings.add(encrypted.oneNote, to: "encrypted one")
                encryptedPeaks.append(encrypted.peak)
                let baseline = try measureBaseline(files: measured.mirror, in: runFolder)
                timings.add(baseline.first, to: "first baseline")
                timings.add(baseline.oneNote, to: "one baseline")
                timings.add(baseline.noOp, to: "no-op baseline")
            }
            return Result(notes: notes, images: images, firstSync: timings.stats("first"), firstSyncBaseline: timings.stats("first baseline"),
                          oneNote: timings.stats("one"), oneNoteBaseline: timings.stats("one baseline"), noOp: timings.stats("no-op"),
                          noOpBaseline: timings.stats("no-op baseline"), firstSyncPeakMemory: peaks.max() ?? 0,
                          receive: timings.stats("receive"), receivePeakMemory: receivePeaks.max(),
                          encryptedFirstSync: timings.stats("encrypted first"), encryptedOneNote: timings.stats("encrypted one"),
                          encryptedFirstSyncPeakMemory: encryptedPeaks.max())
        }
    }

    /// A v5 store of `notes` notes with identifiers, one in ten holding a different small PNG;
    /// `tagged`: each note also has one of 50 tags and a tag every note has.
    /// - Returns: the number of images.
    static func makeStore(at url: URL, notes: Int, tagged: Bool = false) throws -> Int {
        let book = try UnCloudNotesStack(storeURL: url).open()
        let context = book.context
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        var images = 0
        let tags: [ManagedObject] = try (tagged ? ["common"] + (0..<50).map { "topic \($0)" } : []).map { name in
            let tag = try context.insertObject(entityName: "Tag")
            tag.setValue(.string(name), forKey: "name")
            return tag
        }
        for index in 0..<notes {
            let note = try context.insertObject(entityName: "Note")
            note.setValue(.uuid(UUID()), forKey: "identifier")
            note.setValue(.string("Note \(index)"), forKey: "title")
            note.setValue(.string("The body of note \(index).\nA second line, and a third\nto make a note of a few lines.\n"), forKey: "body")
            note.setValue(.date(start.addingTimeInterval(Double(index))), forKey: "dateCreated")
            note.setValue(.date(start.addingTimeInterval(Double(index))), forKey: "dateModified")
            note.setValue(.integer(Int64(index)), forKey: "displayIndex")
            if tagged {
                note.addObject(tags[0], forKey: "tags")
                note.addObject(tags[1 + index % 50], forKey: "tags")
            }
            guard index.isMultiple(of: imageEvery) else { continue }
            let image = try context.insertObject(entityName: "ImageAttachment")
            image.setValue(.uuid(UUID()), forKey: "identifier")
            image.setValue(.data(StoreGenerator.encoded(seed: UInt64(index), format: "png", width: 64, height: 64)), forKey: "image")
            image.setValue(.string("image \(index)"), forKey: "caption")
            image.setValue(.double(64), forKey: "width")
            image.setValue(.double(64), forKey: "height")
            image.setValue(.date(start), forKey: "dateCreated")
            image.setObject(note, forKey: "note")
            images += 1
        }
        try context.save()
        try context.store.close()
        return images
    }

    private struct EngineRun {
        var first: Double
        var oneNote: Double
        var noOp: Double
        var peak: Int64
        var receive: Double
        var receivePeak: Int64
        /// The mirror the first sync made: its files are the baseline's.
        var mirror: URL
    }

    private static func measureEngine(app: URL, master: URL, in folder: URL) throws -> EngineRun {
        let store = folder.appendingPathComponent("notes.sqlite")
        try DiskSync.syncedCopy(of: master, at: store)
        let remote = try bareRepository(folder.appendingPathComponent("engine-remote.git"))
        let memory = folder.appendingPathComponent("peak-memory")
        let (first, peak) = try timedWithPeak(app, ["sync", "--store", store.path, "--remote", remote.path, "--machine", "bench"], memory: memory)
        try ChildProcess.run(app.path, ["notes", "edit", "1", "--body", "Changed on this machine.", "--store", store.path])
        let oneNote = try ChildProcess.run(app.path, ["sync", "--store", store.path, "--machine", "bench"])
        let noOp = try ChildProcess.run(app.path, ["sync", "--store", store.path, "--machine", "bench"])
        // Last: the receiving machine pushes its merge, which the syncs above must not meet.
        let receiving = folder.appendingPathComponent("receiving.sqlite")
        let (receive, receivePeak) = try timedWithPeak(app, ["sync", "--store", receiving.path, "--remote", remote.path, "--machine", "other"],
                                                       memory: memory)
        return EngineRun(first: first, oneNote: oneNote, noOp: noOp, peak: peak, receive: receive, receivePeak: receivePeak, mirror: store.deletingPathExtension().appendingPathExtension("mirror"))
    }

    /// Issue 35: the first sync with `--encrypt` (the identity made on first need in a settings
    /// folder of its own, as a new user's is) to a remote of its own, then one changed note.
    private static func measureEncrypted(app: URL, master: URL, in folder: URL) throws -> (first: Double, oneNote: Double, peak: Int64) {
        let store = folder.appendingPathComponent("encrypted.sqlite")
        try DiskSync.syncedCopy(of: master, at: store)
        let remote = try bareRepository(folder.appendingPathComponent("encrypted-remote.git"))
        // The key is made on first need in this settings folder, as a new user's is.
        let key = ["--identity", folder.appendingPathComponent("config/uncloudnotes/age-identity.txt").path]
        let (first, peak) = try timedWithPeak(URL(fileURLWithPath: "/usr/bin/env"), ["XDG_CONFIG_HOME=\(folder.appendingPathComponent("config").path)", app.path,
                                                  "sync", "--store", store.path, "--remote", remote.path, "--machine", "bench", "--encrypt"],
                                              memory: folder.appendingPathComponent("encrypted-peak-memory"))
        try ChildProcess.run(app.path, ["notes", "edit", "1", "--body", "Changed on this machine.", "--store", store.path])
        let oneNote = try ChildProcess.run(app.path, ["sync", "--store", store.path, "--machine", "bench"] + key)
        return (first, oneNote, peak)
    }

    /// A whole process's time and peak resident memory. GNU time reports the peak of the
    /// program it starts (a child of its own, so the figure is not this process's, as a child
    /// spawned from here would carry at exec). Its standard output goes to `standardOutput`.
    static func timedWithPeak(_ app: URL, _ arguments: [String], memory: URL,
                              standardOutput: String = "/dev/null") throws -> (seconds: Double, peak: Int64) {
        let seconds = try ChildProcess.run("/usr/bin/time", ["-f", "%M", "-o", memory.path, app.path] + arguments, standardOutput: standardOutput)
        let kilobytes = try String(contentsOf: memory, encoding: .utf8).split(separator: "\n").last.flatMap { Int64($0) }
        guard let kilobytes else { throw BenchError("GNU time reported no peak memory for \(arguments.joined(separator: " "))") }
        return (seconds, kilobytes * 1024)
    }

    /// The same files in a plain folder, committed and pushed by git as a careful user would.
    private static func measureBaseline(files mirror: URL, in folder: URL) throws -> (first: Double, oneNote: Double, noOp: Double) {
        let plain = folder.appendingPathComponent("plain")
        try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
        try ChildProcess.run("/bin/sh", ["-c", "git -C \"$1\" archive HEAD | tar -x -C \"$2\" && sync", "sh", mirror.path, plain.path])
        let remote = try bareRepository(folder.appendingPathComponent("baseline-remote.git"))
        let git = "git -c user.name=bench -c user.email=bench@example.org -c commit.gpgsign=false"
        let first = try ChildProcess.run("/bin/sh", ["-c", "cd \"$1\" && \(git) init -q -b main && \(git) add -A && \(git) commit -q -m notes"
                                                        + " && \(git) remote add origin \"$2\" && \(git) push -q origin main", "sh", plain.path, remote.path])
        let note = try FileManager.default.contentsOfDirectory(atPath: plain.appendingPathComponent("notes").path).sorted().first
        guard let note else { throw BenchError("the mirror has no note files") }
        let file = plain.appendingPathComponent("notes").appendingPathComponent(note)
        try Data((try String(contentsOf: file, encoding: .utf8) + "Changed on this machine.\n").utf8).write(to: file)
        let oneNote = try ChildProcess.run("/bin/sh", ["-c", "cd \"$1\" && \(git) commit -q -a -m edit && \(git) pull -q --no-rebase origin main"
                                                          + " && \(git) push -q origin main", "sh", plain.path])
        let noOp = try ChildProcess.run("/bin/sh", ["-c", "cd \"$1\" && \(git) pull -q --no-rebase origin main && \(git) push -q origin main",
                                                       "sh", plain.path])
        return (first, oneNote, noOp)
    }

    private static func bareRepository(_ url: URL) throws -> URL {
        try ChildProcess.run("/usr/bin/env", ["git", "init", "-q", "--bare", "-b", "main", url.path])
        return url
    }
}
