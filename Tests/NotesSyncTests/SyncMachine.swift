import AgeEncryption
import Foundation
import Testing
import ManagedStore
@testable import NotesSync
import TestSupport
import UnCloudNotesKit

/// One machine of a sync test: its own store (opened at v5, as the app writes it) and mirror,
/// syncing with a bare repository on the same disk through the real `git`.
final class SyncMachine {
    let name: String
    let storeURL: URL
    let mirror: URL
    /// This machine's age identity file, never the user's own.
    let identity: URL
    private(set) var book: NoteBook

    init(_ name: String, in folder: TemporaryFolder) throws {
        self.name = name
        storeURL = folder.url.appendingPathComponent("\(name)/notes.sqlite")
        mirror = folder.url.appendingPathComponent("\(name)/notes.mirror")
        identity = folder.url.appendingPathComponent("\(name)/age-identity.txt")
        book = try UnCloudNotesStack(storeURL: storeURL, versionName: "v5").open()
        // Its own key, as age-keygen makes one (--identity names an existing file).
        try AgeIdentity().identityFile(created: Date()).write(to: identity, atomically: true, encoding: .utf8)
    }

    var synchronizer: Synchronizer { Synchronizer(book: book, mirror: mirror, machine: name, identity: identity) }

    @discardableResult
    func sync(_ remote: String, encrypt: Bool = false) throws -> SyncReport {
        defer { book.forgetReadNotes() }
        return try synchronizer.sync(remote: remote, encrypt: encrypt)
    }

    @discardableResult
    func add(_ title: String, _ body: String = "", images: [Data] = []) throws -> UUID {
        let id = try book.add(NoteDraft(title: title, body: body), images: images.map(NoteImage.init(storedData:)))
        return try identifier(of: id)
    }

    func edit(_ identifier: UUID, title: String? = nil, body: String) throws {
        let id = try noteID(identifier)
        let old = try book.snapshot(of: id)
        try book.update(id, with: NoteDraft(title: title ?? old.title, body: body))
    }

    func delete(_ identifier: UUID) throws {
        _ = try book.delete(try noteID(identifier))
    }

    func attach(_ image: Data, to identifier: UUID) throws {
        try book.attach([NoteImage(storedData: image)], to: try noteID(identifier))
    }

    /// Pins or tags a note through the app's API.
    func change(_ identifier: UUID, pinned: Bool? = nil, tags: [String]? = nil) throws {
        let id = try noteID(identifier)
        if let pinned { try book.setPinned(pinned, of: id) }
        if let tags {
            let current = try book.snapshot(of: id).tags
            try book.changeTags(of: id, adding: tags, removing: current.filter { !tags.contains($0) })
        }
        book.forgetReadNotes()
    }

    /// Every note of the store as its mirror file says it, with each image's bytes.
    func notes() throws -> [MirrorNote: [Data]] {
        let notes = try StoreNotes(context: book.context, version: "v5")
        var all: [MirrorNote: [Data]] = [:]
        try notes.forEachNote { object in
            if let (note, images) = try notes.mirrorNote(of: object) { all[note] = note.images.map { images[$0.file] ?? Data() } }
        }
        book.forgetReadNotes()
        return all
    }

    func note(titled title: String) throws -> MirrorNote? {
        try notes().keys.first { $0.title == title }
    }

    private func noteID(_ identifier: UUID) throws -> NoteID {
        let notes = try StoreNotes(context: book.context, version: "v5")
        guard let key = try notes.note(identifier: identifier)?.objectID.primaryKey else { throw SyncError.noRemote(mirror: "no note \(identifier)") }
        return NoteID(key)
    }

    private func identifier(of id: NoteID) throws -> UUID {
        let object = try book.context.existingObject(with: ObjectID(entityName: "Note", primaryKey: id.number))
        return try #require(object?.value(forKey: "identifier")?.uuidValue)
    }
}

extension MirrorNote: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(body)
    }
}

/// A bare repository in `folder`, the remote every machine of a test syncs with.
func bareRemote(in folder: TemporaryFolder, named name: String = "remote.git") throws -> String {
    let url = folder.url.appendingPathComponent(name)
    try runGit(["init", "-q", "--bare", "-b", "main", url.path])
    return url.path
}

@discardableResult
func runGit(_ arguments: [String], in directory: URL? = nil) throws -> String {
    let git = Git(directory: directory ?? FileManager.default.temporaryDirectory, machine: "test")
    return try git.run(arguments)
}
