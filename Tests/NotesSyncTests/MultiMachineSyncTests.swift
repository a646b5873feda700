import Foundation
@testable import NotesSync
import Testing
import TestSupport
import UnCloudNotesKit

/// Three stores as three machines syncing through a bare repository with the real git.
@Suite("Sync between machines through git")
struct MultiMachineSyncTests {
    let folder: TemporaryFolder
    let remote: String
    let a: SyncMachine, b: SyncMachine, c: SyncMachine

    init() throws {
        folder = try TemporaryFolder()
        remote = try bareRemote(in: folder)
        a = try SyncMachine("alpha", in: folder)
        b = try SyncMachine("beta", in: folder)
        c = try SyncMachine("gamma", in: folder)
    }

    /// Syncs each machine in turn, twice round, so every change reaches every machine.
    private func syncAll(_ order: [SyncMachine]? = nil) throws {
        for machine in (order ?? [a, b, c]) + (order ?? [a, b, c]) { try machine.sync(remote) }
    }

    private func expectSame() throws {
        let first = try a.notes()
        #expect(try b.notes() == first)
        #expect(try c.notes() == first)
    }

    @Test("in-process syncs close every descriptor they open for git's answers (a leak of about 20 a round crashed Process.run)")
    func noAnswerFileLeft() throws {
        for round in 0..<5 {
            _ = try a.add("Round \(round)")
            try a.sync(remote)
            try b.sync(remote)
        }
        // Other tests run in this process meanwhile: only descriptors on this test's files count.
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { descriptor in
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
        }
        let answers = open.filter { $0.hasPrefix(folder.url.path) && $0.contains("uncloudnotes-answer") }
        #expect(answers.isEmpty, "\(answers)")
        #expect(try b.notes().count == 5)
    }

    /// Issue 39: a round that pushed a note made during an earlier failure said "sent nothing",
    /// because the failed round had committed it and counted it then.
    @Test("a sync after a refused push says what it sent, though an earlier round committed it")
    func sentAfterFailedRound() throws {
        let hook = URL(fileURLWithPath: remote).appendingPathComponent("hooks/pre-receive")
        try "#!/bin/sh\necho refused for the test >&2\nexit 1\n".write(to: hook, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)
        _ = try a.add("Made during the failure")
        #expect(throws: SyncError.self) { try a.sync(remote) }
        try FileManager.default.removeItem(at: hook)
        let report = try a.sync(remote)
        #expect(report.pushed && report.sent.added == 1, "\(report.lines)")
        #expect(try a.sync(remote).sent.total == 0)
    }

    /// Found by the kill storm: a sync killed after moving the store's commit but before writing
    /// its export token (two rounds running) left the next export "everything", which wrote
    /// every note but removed none, so a note deleted meanwhile never left the machine.
    @Test("a note deleted after a sync whose export token was lost is deleted on the other machines too")
    func deletionAfterLostToken() throws {
        let gone = try a.add("Deleted later")
        _ = try a.add("Kept")
        try a.sync(remote)
        try b.sync(remote)
        try FileManager.default.removeItem(at: SyncState.url(in: a.mirror.appendingPathComponent(".git")))
        try a.delete(gone)
        try a.sync(remote)
        try b.sync(remote)
        #expect(try b.notes().keys.map(\.title) == ["Kept"])
        #expect(try a.notes().keys.map(\.title) == ["Kept"])
    }

    @Test("add, edit, delete, pin, tag and attach on different machines reach all three, whatever the order of syncing")
    func everyKindOfChange() throws {
        let red = TestImages.encoded(width: 3, height: 2), blue = TestImages.encoded(width: 5, height: 4)
        let groceries = try a.add("Groceries", "milk\neggs\n", images: [red])
        let plans = try a.add("Plans", "none yet")
        let old = try a.add("Old")
        let report = try a.sync(remote)
        #expect(report.sent.added == 3 && report.pushed)
        try b.sync(remote)
        try c.sync(remote)
        #expect(try c.notes().keys.map(\.title).sorted() == ["Groceries", "Old", "Plans"])

        try b.edit(groceries, body: "milk\neggs\nbread\n")
        try c.change(plans, pinned: true, tags: ["home"])
        try c.attach(blue, to: groceries)
        let todo = try b.add("To do", "call")
        try a.delete(old)
        try syncAll([c, a, b])
        try expectSame()
        let notes = try a.notes()
        #expect(notes.keys.map(\.title).sorted() == ["Groceries", "Plans", "To do"])
        #expect(notes.keys.first { $0.identifier == plans }.map { $0.pinned && $0.tags == ["home"] } == true)
        let merged = try #require(notes.keys.first { $0.identifier == groceries })
        #expect(merged.body == "milk\neggs\nbread\n")
        #expect(notes[merged] == [red, blue])
        #expect(notes.keys.contains { $0.identifier == todo })

        try c.change(todo, pinned: true, tags: ["work", "urgent"])
        try syncAll([b, c, a])
        try expectSame()
        let pinned = try #require(try b.notes().keys.first { $0.identifier == todo })
        #expect(pinned.pinned && pinned.tags == ["urgent", "work"])
    }

    @Test("edits of different lines of one note on two machines both stay")
    func nonOverlappingEdits() throws {
        let id = try a.add("Poem", "one\ntwo\nthree\nfour\nfive\n")
        try syncAll()
        try a.edit(id, body: "ONE\ntwo\nthree\nfour\nfive\n")
        try b.edit(id, body: "one\ntwo\nthree\nfour\nFIVE\n")
        let first = try a.sync(remote), second = try b.sync(remote)
        #expect(first.conflicts.isEmpty && second.conflicts.isEmpty)
        try syncAll()
        try expectSame()
        #expect(try c.notes().keys.first { $0.identifier == id }?.body == "ONE\ntwo\nthree\nfour\nFIVE\n")
    }

    @Test("overlapping edits keep one version and make the other a new note titled '(conflict from <machine>)'")
    func overlappingEdits() throws {
        let id = try a.add("Shared", "the same line\n")
        try syncAll()
        try a.edit(id, body: "alpha's line\n")
        try b.edit(id, body: "beta's line\n")
        try a.sync(remote)
        let report = try b.sync(remote)
        #expect(report.conflicts.map(\.copyTitle) == ["Shared (conflict from alpha)"])
        try syncAll()
        try expectSame()
        let notes = try c.notes().keys
        #expect(notes.first { $0.identifier == id }?.body == "beta's line\n")
        #expect(notes.first { $0.title == "Shared (conflict from alpha)" }?.body == "alpha's line\n")
        #expect(notes.count == 2)
    }

    @Test("tags and pins changed on two machines merge as sets")
    func setsMerge() throws {
        let id = try a.add("Tagged")
        try a.change(id, tags: ["keep", "drop"])
        try syncAll()
        try a.change(id, tags: ["keep", "drop", "from-alpha"])
        try b.change(id, pinned: true, tags: ["keep", "from-beta"])
        try syncAll()
        try expectSame()
        let note = try #require(try a.notes().keys.first { $0.identifier == id })
        #expect(note.tags == ["from-alpha", "from-beta", "keep"])
        #expect(note.pinned)
    }

    @Test("a tag renamed on one machine is renamed on the others; a tag left on no note goes")
    func tagRename() throws {
        let first = try a.add("First"), second = try a.add("Second")
        try a.change(first, tags: ["home"])
        try a.change(second, tags: ["home", "old"])
        try syncAll()
        try b.book.renameTag("home", to: "house")
        try b.change(second, tags: ["house"])
        try syncAll([b, c, a])
        try expectSame()
        #expect(try c.notes().keys.map(\.tags) == [["house"], ["house"]])
        #expect(try c.book.tags().map(\.name) == ["house"])
    }

    @Test("a note deleted on one machine and edited on another is kept, with the edit")
    func deleteAgainstEdit() throws {
        let id = try a.add("Disputed", "first")
        try syncAll()
        try a.delete(id)
        try b.edit(id, body: "still wanted")
        try a.sync(remote)
        try b.sync(remote)
        try syncAll()
        try expectSame()
        #expect(try a.notes().keys.first { $0.identifier == id }?.body == "still wanted")
    }

    @Test("a mirror file edited by hand syncs like any other change")
    func handEdit() throws {
        let id = try a.add("By hand", "before")
        try syncAll()
        let file = b.mirror.appendingPathComponent(MirrorNote.path(of: id))
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "before", with: "edited in the mirror").utf8).write(to: file)
        let report = try b.sync(remote)
        #expect(report.received.changed == 1)
        #expect(try b.notes().keys.first { $0.identifier == id }?.body == "edited in the mirror")
        try syncAll()
        try expectSame()
    }

    @Test("the first sync of two stores that both have notes gives both all the notes")
    func firstSyncUnion() throws {
        try a.add("Only on alpha")
        try b.add("Only on beta")
        try a.sync(remote)
        try b.sync(remote)
        try a.sync(remote)
        #expect(try a.notes().keys.map(\.title).sorted() == ["Only on alpha", "Only on beta"])
        try expectSameForTwo()
    }

    private func expectSameForTwo() throws {
        let (first, second) = (try a.notes(), try b.notes())
        #expect(first == second, "\(first.keys.map { MirrorNoteFile.render($0) })\n\(second.keys.map { MirrorNoteFile.render($0) })")
    }

    @Test("a new store's first sync receives the notes; then a dry run has nothing to send, and neither has the next sync")
    func nothingToSendAfterAFirstReceive() throws {
        let folder = try TemporaryFolder()
        let remote = try bareRemote(in: folder)
        let a = try SyncMachine("alpha", in: folder), b = try SyncMachine("beta", in: folder)
        try a.add("One", "first")
        try a.sync(remote)
        #expect(try b.sync(remote).received.added == 1)
        let planned = try b.synchronizer.dryRun(remote: nil)
        #expect(planned.sent == SyncReport.Counts(), "a dry run would send the notes just received: \(planned.sent)")
        #expect(try b.sync(remote).sent == SyncReport.Counts())
    }

    @Test("a remote that is not a mirror is refused and left as it was")
    func foreignRemote() throws {
        let work = folder.url.appendingPathComponent("other-project")
        try runGit(["init", "-q", "-b", "main", work.path])
        try Data("hello\n".utf8).write(to: work.appendingPathComponent("README"))
        try runGit(["add", "README"], in: work)
        try runGit(["-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "-m", "theirs"], in: work)
        let foreign = try bareRemote(in: folder, named: "foreign.git")
        try runGit(["push", "-q", foreign, "main"], in: work)
        let before = try runGit(["show-ref"], in: URL(fileURLWithPath: foreign))
        try a.add("Mine")
        #expect {
            try a.sync(foreign)
        } throws: { error in
            guard case SyncError.remoteNotAMirror = error else { return false }
            return "\(error)".contains("left untouched") && !"\(error)".contains("\n")
        }
        #expect(try runGit(["show-ref"], in: URL(fileURLWithPath: foreign)) == before)
    }

    @Test("when the remote moves between the fetch and the push, the push is refused and sync fetches, merges and pushes again")
    func remoteMovesDuringSync() throws {
        try syncAll()
        try b.add("Pushed meanwhile by beta")
        try a.add("From alpha")
        // git runs the pre-push hook right before pushing: there beta syncs (the real program), once.
        let flag = folder.url.appendingPathComponent("hook-ran")
        let hook = a.mirror.appendingPathComponent(".git/hooks/pre-push")
        try Data("""
            #!/bin/sh
            [ -e '\(flag.path)' ] && exit 0
            touch '\(flag.path)'
            exec env -u GIT_DIR -u GIT_WORK_TREE -u GIT_INDEX_FILE '\(BuiltExecutable.url.path)' sync --store '\(b.storeURL.path)' \\
                --model-version v5 --mirror '\(b.mirror.path)' --machine beta >/dev/null
            """.utf8).write(to: hook)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: hook.path)
        let report = try a.sync(remote)
        #expect(FileManager.default.fileExists(atPath: flag.path))
        #expect(report.pushed)
        #expect(report.received.added == 1)
        #expect(try a.notes().keys.map(\.title).sorted() == ["From alpha", "Pushed meanwhile by beta"])
        try b.sync(remote)
        try expectSameForTwo()
    }

    @Test("a push the remote refuses (its hook) is a one-line error; the notes go once it accepts")
    func rejectedPush() throws {
        try a.add("Refused at first")
        let hook = URL(fileURLWithPath: remote).appendingPathComponent("hooks/pre-receive")
        try Data("#!/bin/sh\necho 'read-only for now' >&2\nexit 1\n".utf8).write(to: hook)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: hook.path)
        #expect {
            try a.sync(remote)
        } throws: { error in
            guard case SyncError.pushRejected = error else { return false }
            return "\(error)".hasSuffix("local work is kept") && !"\(error)".contains("\n")
        }
        try FileManager.default.removeItem(at: hook)
        #expect(try a.sync(remote).pushed)
        try b.sync(remote)
        #expect(try b.notes().keys.map(\.title) == ["Refused at first"])
    }

    @Test("an unreachable remote is a one-line error; the local changes go with the next sync")
    func unreachableRemote() throws {
        try a.add("Written offline")
        let missing = folder.url.appendingPathComponent("nowhere.git").path
        #expect {
            try a.sync(missing)
        } throws: { error in
            guard case SyncError.remoteUnreachable = error else { return false }
            return !"\(error)".contains("\n")
        }
        try a.sync(remote)
        try b.sync(remote)
        #expect(try b.notes().keys.map(\.title) == ["Written offline"])
    }
}
