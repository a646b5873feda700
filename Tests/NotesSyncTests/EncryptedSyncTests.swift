import AgeEncryption
import Foundation
@testable import NotesSync
import Testing
import TestSupport
import UnCloudNotesKit

/// Two stores syncing through a bare remote with `--encrypt`: the remote holds nothing
/// readable, `age -d` opens every note file, and the stores converge (issue #35).
@Suite("Encrypted remotes")
struct EncryptedSyncTests {
    let folder: TemporaryFolder
    let remote: String
    let a: SyncMachine, b: SyncMachine

    init() throws {
        folder = try TemporaryFolder()
        remote = try bareRemote(in: folder)
        a = try SyncMachine("alpha", in: folder)
        b = try SyncMachine("beta", in: folder)
    }

    /// B's first sync fails with its new key, which A adds; both then sync.
    private func letBIn() throws -> SyncError? {
        var refusal: SyncError?
        do {
            try b.sync(remote)
        } catch {
            refusal = error as? SyncError
        }
        let key = try #require(try AgeIdentity.read(identityFile: String(contentsOf: b.identity, encoding: .utf8)).first).recipient
        _ = try a.synchronizer.addRecipient(key.description)
        try b.sync(remote)
        return refusal
    }

    /// Every object in the remote, as bytes (`git cat-file --batch-all-objects`).
    private func remoteObjects() throws -> [Data] {
        let git = Git(directory: URL(fileURLWithPath: remote), machine: "test")
        let ids = try git.run(["cat-file", "--batch-all-objects", "--batch-check=%(objectname)"]).split(separator: "\n").map(String.init)
        return try mirrorFiles(ids, git: git)
    }

    private func mirrorFiles(_ ids: [String], git: Git) throws -> [Data] {
        try ids.map { id in try git.runForData(["cat-file", "-p", id]) }
    }

    @Test("no object on the remote holds a title, body, tag or image byte; age -d reads each note file; both stores converge")
    func nothingReadableOnTheRemote() throws {
        let photo = TestImages.encoded(width: 40, height: 30), second = TestImages.encoded(width: 30, height: 20, format: "jpeg")
        let plans = try a.add("Zanzibar itinerary", "ferry at dawn, quokka-free\n", images: [photo])
        try a.change(plans, pinned: true, tags: ["travelsecret"])
        let report = try a.sync(remote, encrypt: true)
        #expect(report.pushed)

        let refusal = try letBIn()
        guard case .notARecipient(let recipient, let file)? = refusal else {
            Issue.record("B's first sync should be refused, was \(String(describing: refusal))")
            return
        }
        #expect(recipient.hasPrefix("age1") && file == b.identity.path)
        let diary = try b.add("Marmalade diary", "orange peel ratio 3:1\n", images: [second])
        try b.change(diary, tags: ["kitchenlore"])
        try b.edit(plans, body: "ferry at dawn, quokka-free\nthen the spice market\n")
        try b.sync(remote)
        try a.sync(remote)
        try b.sync(remote)

        let ours = try a.notes()
        #expect(try b.notes() == ours)
        #expect(ours.count == 2)
        let merged = try #require(ours.keys.first { $0.identifier == plans })
        #expect(merged.pinned && merged.tags == ["travelsecret"] && merged.body.hasSuffix("spice market\n"))
        #expect(ours[merged] == [photo])
        #expect(ours.first { $0.key.identifier == diary }?.value == [second])

        let secrets = ["Zanzibar", "itinerary", "quokka", "spice market", "travelsecret", "Marmalade", "orange peel", "kitchenlore"].map { Data($0.utf8) }
        let objects = try remoteObjects()
        #expect(objects.count > 10)
        for object in objects {
            for secret in secrets + [photo, second].map({ $0.subdata(in: $0.count / 2..<$0.count / 2 + 32) }) {
                #expect(object.range(of: secret) == nil, "a remote object holds \(String(decoding: secret.prefix(20), as: UTF8.self))")
            }
        }
        // Every note file on the remote's main opens with Debian's age and A's key.
        let git = Git(directory: URL(fileURLWithPath: remote), machine: "test")
        let paths = try git.run(["ls-tree", "-r", "--name-only", "main"]).split(separator: "\n").map(String.init)
        #expect(paths.contains { $0.hasPrefix("images/") && $0.hasSuffix(".age") })
        #expect(!paths.contains { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") })
        let notePaths = paths.filter { $0.hasPrefix("notes/") }
        #expect(notePaths.count == 2)
        for path in notePaths {
            let file = folder.url.appendingPathComponent("note.age")
            try git.runForData(["show", "main:\(path)"]).write(to: file)
            let opened = try ageDecrypt(file, identity: a.identity, in: folder)
            #expect(opened.hasPrefix("---\nidentifier: "))
        }
        let messages = try git.run(["log", "--format=%B", "main"])
        #expect(!messages.contains("Zanzibar") && !messages.contains("Marmalade"))
    }

    @Test("overlapping edits merge decrypted: the note keeps ours and theirs becomes a conflict copy, itself encrypted")
    func conflictsMergeEncrypted() throws {
        let note = try a.add("Shared", "line one\n")
        try a.sync(remote, encrypt: true)
        _ = try letBIn()
        try a.edit(note, body: "line ONE from alpha\n")
        try b.edit(note, body: "line one from beta\n")
        try a.sync(remote)
        try b.sync(remote)
        try a.sync(remote)
        let titles = try a.notes().keys.map(\.title).sorted()
        #expect(titles == ["Shared", "Shared (conflict from alpha)"])
        #expect(try b.notes() == a.notes())
        let mirrorNotes = try FileManager.default.contentsOfDirectory(atPath: b.mirror.appendingPathComponent("notes").path)
        for name in mirrorNotes {
            #expect(AgeFile.looksEncrypted(try Data(contentsOf: b.mirror.appendingPathComponent("notes/\(name)"))))
        }
    }

    @Test("a round with no change sends nothing, and a retitle rewrites one note file, not its image")
    func unchangedStaysUnchanged() throws {
        let note = try a.add("Photo note", "x", images: [TestImages.encoded(width: 20, height: 20)])
        try a.sync(remote, encrypt: true)
        let head = try a.sync(remote).commit
        #expect(try a.sync(remote).sent == SyncReport.Counts())
        #expect(try a.sync(remote).commit == head)
        try a.edit(note, title: "Photo note, renamed", body: "x")
        let report = try a.sync(remote)
        #expect(report.sent.changed == 1)
        let changed = try runGit(["diff", "--name-only", head ?? "", "HEAD"], in: a.mirror).split(separator: "\n")
        #expect(changed.count == 1 && changed.first?.hasPrefix("notes/") == true)
    }

    @Test("a plain mirror is converted in one round and told that the remote's history still holds the plain files")
    func plainMirrorConverted() throws {
        let note = try a.add("Before encryption", "plain once\n", images: [TestImages.encoded(width: 6, height: 6)])
        try a.sync(remote)
        try b.sync(remote)
        // B shares A's key (copied identity file), as a user with one key on several machines does.
        let report = try a.sync(remote, encrypt: true)
        #expect(report.notices.contains { $0.contains("history still holds them in plain text") })
        try FileManager.default.removeItem(at: b.identity)
        try FileManager.default.copyItem(at: a.identity, to: b.identity)
        try b.edit(note, body: "plain once\nencrypted since\n")
        try b.sync(remote)
        try a.sync(remote)
        #expect(try a.notes() == b.notes())
        #expect(try a.note(titled: "Before encryption")?.body == "plain once\nencrypted since\n")
        let git = Git(directory: URL(fileURLWithPath: remote), machine: "test")
        let tip = try git.run(["ls-tree", "-r", "--name-only", "main"]).split(separator: "\n")
        for path in tip where path.hasPrefix("notes/") || path.hasPrefix("images/") {
            #expect(AgeFile.looksEncrypted(try git.runForData(["show", "main:\(path)"])), "\(path) is plain")
        }
    }

    /// Found by a new user's trial: the host appended its own key to `.age-recipients`, and the
    /// next sync encrypted a changed note for it without a word.
    @Test("a recipient the remote lists that this machine never accepted stops the sync before anything is encrypted for it")
    func hostAddedKeyRefused() throws {
        let note = try a.add("Private", "only mine\n")
        try a.sync(remote, encrypt: true)
        let host = AgeIdentity()
        let hand = folder.url.appendingPathComponent("hand")
        try runGit(["clone", "-q", remote, hand.path])
        let listing = hand.appendingPathComponent(MirrorCipher.recipientsFile)
        try (String(contentsOf: listing, encoding: .utf8) + "\(host.recipient)\n").write(to: listing, atomically: true, encoding: .utf8)
        try runGit(["-c", "user.name=h", "-c", "user.email=h@h", "commit", "-q", "-am", "the host's key"], in: hand)
        try runGit(["push", "-q", "origin", "main"], in: hand)
        let tampered = try runGit(["rev-parse", "main"], in: URL(fileURLWithPath: remote))
        try a.edit(note, body: "only mine\nand a secret\n")
        let refusal = try #require(try remoteRefusal(of: a))
        guard case .unacceptedRecipients(let keys) = refusal.cause else {
            Issue.record("refused with \(refusal.line)")
            return
        }
        #expect(keys == [host.recipient.description] && refusal.commit == tampered.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(refusal.line.contains("uncloudnotes sync recipients add \(host.recipient)"), "the key itself, not KEY")
        #expect(try runGit(["rev-parse", "main"], in: URL(fileURLWithPath: remote)) == tampered, "nothing was pushed")
        // Accepting it on purpose (as for another machine's key) lets the sync go on.
        let planned = try a.synchronizer.addRecipient(host.recipient.description, dryRun: true)
        #expect(planned.notices.contains { $0.hasPrefix("would accept") && $0.contains("nothing is encrypted again") }, "\(planned.notices)")
        let accepted = try a.synchronizer.addRecipient(host.recipient.description)
        #expect(accepted.notices.contains { $0.hasPrefix("accepted \(host.recipient)") }, "\(accepted.notices)")
        #expect(try a.sync(remote).sent.total == 0)
    }

    @Test("a phone-size photo (12 MP JPEG, many 64 KiB chunks) travels encrypted: the same bytes on both machines, and age -d opens its file")
    func phonePhotoTravels() throws {
        let photo = TestImages.encoded(width: 4000, height: 3000, format: "jpeg")
        #expect(photo.count > 3 * 65_536, "the photo should span several chunks, is \(photo.count) bytes")
        let note = try a.add("Holiday", "the beach\n", images: [photo])
        try a.sync(remote, encrypt: true)
        _ = try letBIn()
        #expect(try b.notes().first { $0.key.identifier == note }?.value == [photo])
        let git = Git(directory: URL(fileURLWithPath: remote), machine: "test")
        let images = try git.run(["ls-tree", "-r", "--name-only", "main", "--", "images/"]).split(separator: "\n").map(String.init)
        #expect(images.count == 1)
        let file = folder.url.appendingPathComponent("photo.age"), opened = folder.url.appendingPathComponent("photo.jpg")
        try git.runForData(["show", "main:\(images[0])"]).write(to: file)
        let status = try SpawnedProcess.run(["age", "-d", "-i", a.identity.path, "-o", opened.path, file.path], standardError: "/dev/null")
        #expect(status.code == 0)
        #expect(try Data(contentsOf: opened) == photo)
    }

    /// A clone of the remote where "someone with write access" changes files by hand.
    private func handClone() throws -> URL {
        let hand = folder.url.appendingPathComponent("hand")
        try runGit(["clone", "-q", remote, hand.path])
        return hand
    }

    private func pushByHand(_ hand: URL, _ message: String) throws {
        try runGit(["add", "-A"], in: hand)
        try runGit(["-c", "user.name=Mallory", "-c", "user.email=m@example.org", "commit", "-q", "-m", message], in: hand)
        try runGit(["push", "-q", "origin", "main"], in: hand)
    }

    /// The refusal a sync of `machine` ends with, as its cause and the commit it names.
    private func remoteRefusal(of machine: SyncMachine) throws -> (commit: String, author: String, cause: SyncError, line: String)? {
        do {
            try machine.sync(remote)
        } catch let error as SyncError {
            guard case .refusedRemoteFile(let commit, let author, let cause) = error else {
                Issue.record("refused with \(error)")
                return nil
            }
            return (commit, author, cause, error.description)
        }
        Issue.record("the changed file must not be accepted")
        return nil
    }

    @Test("a note file changed on the remote (one byte flipped) stops the sync, naming the file and the commit to undo; after the revert, sync goes on")
    func tamperedFileRefused() throws {
        let note = try a.add("Original", "as written\n")
        try a.sync(remote, encrypt: true)
        _ = try letBIn()
        try a.edit(note, body: "as written\nand changed\n")
        _ = try a.add("Another")
        try a.sync(remote)
        // Someone with write access to the remote flips one byte of the changed note's last chunk.
        let hand = try handClone()
        let path = MirrorNote.path(of: note)
        var bytes = try Data(contentsOf: hand.appendingPathComponent(path))
        bytes[bytes.count - 5] ^= 0x01
        try bytes.write(to: hand.appendingPathComponent(path))
        try pushByHand(hand, "tamper")
        let tampered = try runGit(["rev-parse", "HEAD"], in: hand).trimmingCharacters(in: .whitespacesAndNewlines)
        let before = try b.notes()
        let refusal = try #require(try remoteRefusal(of: b))
        guard case .undecryptableFile(let named, .chunkChanged) = refusal.cause else {
            Issue.record("the cause should be the changed chunk, was \(refusal.cause)")
            return
        }
        #expect(named == path && refusal.commit == tampered && refusal.author == "Mallory")
        #expect(refusal.line.contains(path) && refusal.line.contains("nothing was applied") && refusal.line.contains("git revert \(tampered.prefix(12))"))
        #expect(!refusal.line.contains("\n"))
        #expect(try b.notes() == before)
        // Stuck no longer once the commit is undone on the remote, as the line says.
        try runGit(["-c", "user.name=Owner", "-c", "user.email=o@example.org", "revert", "--no-edit", tampered], in: hand)
        try runGit(["push", "-q", "origin", "main"], in: hand)
        try b.sync(remote)
        try a.sync(remote)
        #expect(try a.notes() == b.notes())
        #expect(try b.note(titled: "Original")?.body == "as written\nand changed\n")
    }

    /// Found by a new user's trial: a plain note file pushed to an encrypted remote was taken
    /// in (and encrypted by the next merge) as if a recipient had written it.
    @Test("a plain note file pushed to an encrypted remote is refused, naming the commit; nothing is applied or pushed")
    func plainFileRefused() throws {
        _ = try a.add("Mine", "m\n")
        try a.sync(remote, encrypt: true)
        let hand = try handClone()
        let forged = MirrorNote(identifier: UUID(), title: "Planted", created: Date(), modified: nil, pinned: false, tags: [], images: [],
                                body: "written by the host\n")
        let path = MirrorNote.path(of: forged.identifier)
        try Data(MirrorNoteFile.render(forged).utf8).write(to: hand.appendingPathComponent(path))
        try pushByHand(hand, "plant")
        let planted = try runGit(["rev-parse", "HEAD"], in: hand).trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try a.add("Written meanwhile")
        let before = try a.notes()
        let refusal = try #require(try remoteRefusal(of: a))
        #expect(refusal.cause.remoteFilePath == path && refusal.commit == planted, "\(refusal.line)")
        if case .unsealedFile = refusal.cause {} else { Issue.record("the cause should be the plain file, was \(refusal.cause)") }
        #expect(try a.notes() == before && a.note(titled: "Planted") == nil)
        #expect(try runGit(["rev-parse", "main"], in: URL(fileURLWithPath: remote)).trimmingCharacters(in: .whitespacesAndNewlines) == planted,
                "nothing was pushed over it")
    }

    /// Every object of a repository's history (and of the mirror's), as text, for a secret.
    private func holds(_ secret: String, repository: URL) throws -> Bool {
        try runGit(["log", "--all", "-p", "--format=%B"], in: repository).contains(secret)
    }

    /// Found by a new user's trial: a host that deleted `.age-recipients` turned encryption off
    /// for every machine, and the next new note went to the remote in plain text.
    @Test("a remote whose recipients file was deleted stops the sync, naming the commit; nothing goes plain, and the revert lets it go on")
    func recipientsFileDeletedOnTheRemote() throws {
        _ = try a.add("First", "first\n")
        try a.sync(remote, encrypt: true)
        let hand = try handClone()
        try runGit(["rm", "-q", MirrorCipher.recipientsFile], in: hand)
        try pushByHand(hand, "downgrade")
        let downgrade = try runGit(["rev-parse", "HEAD"], in: hand).trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try a.add("Leak title", "leak body quokka\n")
        let refusal = try #require(try remoteRefusal(of: a))
        if case .encryptionRemoved = refusal.cause {} else { Issue.record("the cause should be the missing recipients, was \(refusal.cause)") }
        #expect(refusal.commit == downgrade && refusal.line.contains("git revert"))
        #expect(try !holds("quokka", repository: URL(fileURLWithPath: remote)))
        #expect(try !holds("quokka", repository: a.mirror), "not even a local commit holds it in plain text")
        try runGit(["-c", "user.name=Owner", "-c", "user.email=o@example.org", "revert", "--no-edit", "HEAD"], in: hand)
        try runGit(["push", "-q", "origin", "main"], in: hand)
        try a.sync(remote)
        #expect(try !holds("quokka", repository: URL(fileURLWithPath: remote)))
        #expect(try runGit(["show", "main:\(MirrorCipher.recipientsFile)"], in: URL(fileURLWithPath: remote)).contains("age1"))
    }

    @Test("a recipients file deleted or edited by hand in the mirror is put back, with a notice; the notes stay encrypted")
    func recipientsFileEditedInTheMirror() throws {
        _ = try a.add("First", "first\n")
        try a.sync(remote, encrypt: true)
        try FileManager.default.removeItem(at: a.mirror.appendingPathComponent(MirrorCipher.recipientsFile))
        _ = try a.add("After", "after body wombat\n")
        let report = try a.sync(remote)
        #expect(report.notices.contains { $0.contains(MirrorCipher.recipientsFile) && $0.contains("put back") }, "\(report.notices)")
        #expect(try !holds("wombat", repository: URL(fileURLWithPath: remote)))
        let listing = a.mirror.appendingPathComponent(MirrorCipher.recipientsFile)
        try (String(contentsOf: listing, encoding: .utf8) + "\(AgeIdentity().recipient)\n").write(to: listing, atomically: true, encoding: .utf8)
        #expect(try a.sync(remote).notices.contains { $0.contains("put back") })
        #expect(try a.synchronizer.recipients().count == 1)
    }

    /// Found by a new user's trial: `sync --encrypt --remote NEW` with the old mirror in place
    /// pushed its plain history to the new, "clean" remote.
    @Test("a mirror whose history holds plain notes is refused a new remote while encrypted; moved aside, the new remote gets only ciphertext")
    func plainHistoryKeptFromANewRemote() throws {
        _ = try a.add("Old", "platypus diary\n")
        try a.sync(remote)
        try a.sync(remote, encrypt: true)
        let fresh = try bareRemote(in: folder, named: "fresh.git")
        do {
            _ = try a.synchronizer.sync(remote: fresh)
            Issue.record("the plain history must not be pushed to a new remote")
        } catch {
            if case .plainHistory = error {} else { Issue.record("refused with \(error)") }
        }
        #expect(try !holds("platypus", repository: URL(fileURLWithPath: fresh)))
        try FileManager.default.moveItem(at: a.mirror, to: folder.url.appendingPathComponent("alpha/notes.mirror.plain"))
        _ = try a.synchronizer.sync(remote: fresh, encrypt: true)
        #expect(try !holds("platypus", repository: URL(fileURLWithPath: fresh)))
        #expect(try runGit(["ls-tree", "-r", "--name-only", "main"], in: URL(fileURLWithPath: fresh)).contains("notes/"))
    }

    @Test("a removed recipient cannot open what is written after; the last or own key cannot be removed")
    func removingRecipients() throws {
        _ = try a.add("Kept", "k")
        try a.sync(remote, encrypt: true)
        _ = try letBIn()
        let listed = try a.synchronizer.recipients()
        let own = try #require(listed.first { $0.isThisMachine }).key, other = try #require(listed.first { !$0.isThisMachine }).key
        #expect(refusal { _ = try a.synchronizer.removeRecipient(own) } == .ownKey(own))
        _ = try a.synchronizer.removeRecipient(other)
        #expect(try a.synchronizer.recipients().map(\.key) == [own])
        #expect(refusal { _ = try a.synchronizer.removeRecipient(own) } == .lastRecipient)
        do {
            try b.sync(remote)
            Issue.record("B should be refused once its key is removed")
        } catch let error as SyncError {
            if case .notARecipient = error {} else { Issue.record("B was refused with \(error)") }
        }
    }

    private func refusal(_ work: () throws -> Void) -> RecipientsRefusal? {
        do {
            try work()
        } catch let error as SyncError {
            if case .recipientsRefused(let reason) = error { return reason }
        } catch {}
        return nil
    }
}

/// Debian's `age`, the reference implementation, opening `file` with `identity` (`make test`
/// installs it; a missing `age` fails the test, never skips it).
func ageDecrypt(_ file: URL, identity: URL, in folder: TemporaryFolder) throws -> String {
    let opened = folder.url.appendingPathComponent("opened.txt")
    let status = try SpawnedProcess.run(["age", "-d", "-i", identity.path, file.path], standardOutput: opened.path,
                                        standardError: folder.url.appendingPathComponent("age-errors").path)
    #expect(!status.endedBySignal && status.code == 0, "age -d failed (is Debian's age installed? make test installs it)")
    return try String(contentsOf: opened, encoding: .utf8)
}
