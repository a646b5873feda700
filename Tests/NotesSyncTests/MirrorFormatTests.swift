import Foundation
@testable import NotesSync
import Testing

@Suite("The mirror's note files")
struct MirrorFormatTests {
    let note = MirrorNote(identifier: UUID(), title: "true: a \"quoted\" #title\nwith a line", created: Date(timeIntervalSince1970: 1_700_000_000.125),
                          modified: Date(timeIntervalSince1970: 1_700_000_100.5), pinned: true, tags: ["b", "a", "b"],
                          images: [MirrorImage(identifier: UUID(), file: "images/" + String(repeating: "ab", count: 32) + ".png", caption: "no",
                                               width: 3, height: 2)],
                          body: "---\nnot front matter\n---\n\n  trailing  ")

    @Test("a note renders to front matter and its body as is, and reads back equal")
    func roundTrip() throws {
        let text = MirrorNoteFile.render(note)
        #expect(text.hasPrefix("---\nidentifier: \(note.identifier.uuidString.lowercased())\n"))
        #expect(text.hasSuffix("---\n" + note.body))
        #expect(try MirrorNoteFile.parse(text, path: note.path) == note)
        #expect(note.tags == ["a", "b"])
    }

    @Test("files that are not notes are refused with the file's name", arguments: [
        "no front matter", "---\ntitle: [unclosed\n---\n", "---\ntitle: x\n---\n",
    ])
    func refused(text: String) {
        #expect {
            try MirrorNoteFile.parse(text, path: "notes/x.md")
        } throws: { "\($0)".hasPrefix("mirror file notes/x.md cannot be read") }
    }

    @Test("a hand-written tag the app would refuse stops the file, naming it and the rule", arguments: ["a, b", "\"\"", "\"bell\\a\""])
    func badTag(tag: String) throws {
        let text = MirrorNoteFile.render(note).replacingOccurrences(of: "tags:\n- a\n- b\n", with: "tags:\n- \(tag)\n")
        #expect(text.contains("tags:\n- \(tag)\n"))
        #expect {
            try MirrorNoteFile.parse(text, path: note.path)
        } throws: { error in
            guard case SyncError.unreadableNoteFile(let path, .badTag(.badTagName)) = error else { return false }
            return path == note.path
        }
    }

    @Test("tags written with spaces around them read as the app stores them")
    func trimmedTag() throws {
        let text = MirrorNoteFile.render(note).replacingOccurrences(of: "tags:\n- a\n", with: "tags:\n- '  a '\n")
        #expect(try MirrorNoteFile.parse(text, path: note.path).tags == ["a", "b"])
    }

    @Test("a file whose identifier names another file is refused")
    func wrongName() throws {
        let text = MirrorNoteFile.render(note)
        #expect(throws: SyncError.self) { try MirrorNoteFile.parse(text, path: MirrorNote.path(of: UUID())) }
    }
}

@Suite("Merging one note changed on two machines")
struct NoteMergeTests {
    let merger = NoteMerge()
    let base = MirrorNote(identifier: UUID(), title: "T", created: nil, modified: nil, pinned: false, tags: ["x"], images: [], body: "b")

    @Test("sets merge three ways: what either added stays, what either removed goes")
    func sets() throws {
        var ours = base, theirs = base
        ours.tags = ["x", "ours"]
        theirs.tags = ["theirs"]
        theirs.pinned = true
        let outcome = merger.merge(base: base, ours: ours, theirs: theirs, theirMachine: "m")
        #expect(outcome.note?.tags == ["ours", "theirs"])
        #expect(outcome.note?.pinned == true)
        #expect(outcome.conflictCopy == nil)
    }

    @Test("overlapping bodies keep ours and copy theirs, with an identifier both machines derive alike")
    func overlap() throws {
        var ours = base, theirs = base
        ours.body = "o"
        theirs.body = "t"
        let outcome = merger.merge(base: base, ours: ours, theirs: theirs, theirMachine: "laptop")
        #expect(outcome.note?.body == "o")
        #expect(outcome.conflictCopy?.title == "T (conflict from laptop)")
        #expect(outcome.conflictCopy?.body == "t")
        #expect(outcome.conflictCopy?.identifier == (merger.merge(base: base, ours: ours, theirs: theirs, theirMachine: "laptop")).conflictCopy?.identifier)
    }

    @Test("deleted on one side, changed on the other: kept; deleted and unchanged: gone")
    func deleteAgainstEdit() throws {
        var edited = base
        edited.body = "new"
        #expect(merger.merge(base: base, ours: nil, theirs: edited, theirMachine: "m").note == edited)
        #expect(merger.merge(base: base, ours: edited, theirs: nil, theirMachine: "m").note == edited)
        #expect(merger.merge(base: base, ours: nil, theirs: base, theirMachine: "m").note == nil)
    }

    /// Found by a new user's trial: in an encrypted mirror a conflict copy's file name was a
    /// plain hash of the note's text, which a host could confirm a guess of.
    @Test("in an encrypted mirror a conflict copy's identifier is keyed: not the plain hash, and the same on every machine with the key")
    func keyedConflictCopies() {
        let theirs = MirrorNote(identifier: base.identifier, title: "T", created: nil, modified: nil, pinned: false, tags: [], images: [], body: "guessable")
        let key = Data(repeating: 7, count: 32)
        let keyed = NoteMerge(identifierKey: key).conflictCopy(of: theirs, from: "laptop").identifier
        #expect(keyed == NoteMerge(identifierKey: key).conflictCopy(of: theirs, from: "laptop").identifier)
        #expect(keyed != merger.conflictCopy(of: theirs, from: "laptop").identifier)
        #expect(keyed != NoteMerge(identifierKey: Data(repeating: 8, count: 32)).conflictCopy(of: theirs, from: "laptop").identifier)
    }

    @Test("a remote's user name and password never reach a commit message or an error line")
    func remoteAddressRedacted() {
        #expect(RemoteAddress.redacted("https://alice:ghp_TOKEN@example.org/me/notes.git") == "https://example.org/me/notes.git")
        #expect(RemoteAddress.redacted("http://tok@127.0.0.1:8765/n.git") == "http://127.0.0.1:8765/n.git")
        #expect(RemoteAddress.redacted("git@example.org:me/notes.git") == "git@example.org:me/notes.git")
        #expect(RemoteAddress.redacted("/srv/notes.git") == "/srv/notes.git")
        #expect(RemoteAddress.redacted("https://example.org/a@b/notes.git") == "https://example.org/a@b/notes.git")
        let failure = GitFailure(arguments: ["fetch"], status: 128, standardError: "fatal: unable to access")
        #expect(!"\(SyncError.remoteUnreachable(remote: "https://alice:ghp_TOKEN@example.org/n.git", failure))".contains("ghp_TOKEN"))
    }
}
