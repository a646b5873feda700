import Foundation
import UnCloudNotesKit

/// Does the store's part of the effects key handling returns, and feeds each outcome back to the
/// app as an event, until nothing is left to do. Both the terminal loop and the tests run the
/// app through it, so what a key does to the store is tested as it runs. It is the only holder of
/// the book: the app reads the store only through the effects it returns.
public struct NotesEffectRunner {
    let book: NoteBook

    public init(book: NoteBook) {
        self.book = book
    }

    /// Runs the store effects and those the app asks for in answer to their events, then the
    /// reads the next frame needs (`NotesApp.prepareFrame`), so the frame drawn next has them.
    /// - Returns: the effects only the terminal can carry out (quit, the external editor), in order.
    @discardableResult
    public func perform(_ effects: [NotesEffect], on app: NotesApp) -> [NotesEffect] {
        var queue = effects[...]
        var forTerminal: [NotesEffect] = []
        while true {
            while let effect = queue.popFirst() {
                if let event = run(effect) {
                    queue += app.receive(event)
                } else {
                    forTerminal.append(effect)
                }
            }
            // Each read ends as data or as a failure the app remembers, so this comes to an end.
            queue += app.prepareFrame()
            if queue.isEmpty { return forTerminal }
        }
    }

    /// One frame at a size, as the terminal loop makes it: the size arrives as a `resize` event,
    /// the reads the screen needs run, and the frame is drawn.
    public func render(_ app: NotesApp, width: Int, height: Int) -> CellBuffer {
        perform(app.size == TerminalSize(columns: width, rows: height) ? [] : app.handle(.resize(columns: width, rows: height)), on: app)
        app.startPreviews()
        return app.frame().render()
    }

    /// The outcome of one store effect; nil for effects the terminal carries out.
    public func run(_ effect: NotesEffect) -> NotesEvent? {
        do {
            return try runOnStore(effect)
        } catch {
            return .failed(error)
        }
    }

    private func runOnStore(_ effect: NotesEffect) throws(NoteBookError) -> NotesEvent? {
        switch effect {
        case .quit, .openEditor, .openImage:
            return nil
        case .save(let draft, over: let id?):
            try book.update(id, with: draft)
            return .saved(id, .updated)
        case .save(let draft, over: nil):
            return .saved(try book.add(draft), .created)
        case .saveAsCopy(let draft):
            return .saved(try book.add(draft), .copied)
        case .delete(let id):
            do {
                return .deleted(try book.delete(id))
            } catch .noSuchNote {
                // Another program deleted it first: it is gone all the same, with nothing to undo.
                return .deleted(nil)
            }
        case .setPinned(let pinned, let id):
            try book.setPinned(pinned, of: id)
            return .pinned(id, pinned)
        case .restore(let deleted):
            return .restored(try book.restore(deleted))
        case .deleteAttachment(let attachment, let id):
            try book.deleteAttachment(attachment)
            return .attachmentDeleted(of: id)
        case .attach(let path, let id, let caption, let replacing):
            let image: NoteImage
            switch Self.readImage(at: path) {
            case .success(let read): image = read
            case .failure(let refusal): return .imageRefused(refusal.reason)
            }
            do {
                return .attached(to: id, imageCount: try book.attach([image], to: id, caption: caption, replacing: replacing))
            } catch .noteHasItsImage {
                // The title only words the question; a note that cannot be read now is asked
                // about without it, and the replace that follows reports the read's error.
                return .replaceAsked(id, path: path, title: (try? book.snapshot(of: id).title) ?? "")
            }
        case .setCaption(let caption, let attachment, let id):
            try book.setCaption(caption, of: attachment)
            return .captionSaved(id)
        case .reload(let query, let usingIndex, let selecting, let counting, let size):
            let page = try book.noteIDs(query, page: ListPage(limit: size), usingIndex: usingIndex)
            return .listRead(page, total: counting ? try book.count() : nil, selecting: selecting, isComplete: page.count < size)
        case .readRows(let ids):
            do {
                return .rowsRead(try book.rows(of: ids))
            } catch {
                return .rowsUnreadable(ids, error)
            }
        case .readNote(let id):
            do {
                return .noteRead(try book.snapshot(of: id))
            } catch {
                return .noteUnreadable(id, error)
            }
        case .readTags:
            return .tagsRead(Result { () throws(NoteBookError) in try book.tags() })
        case .checkStore(let known):
            return .storeChecked(Result { () throws(NoteBookError) in try checkStore(knownVersion: known) })
        case .completePath(let typed):
            let completion = PathCompletion.complete(typed)
            return .pathCompleted(typed: typed, text: completion.text, candidates: completion.candidates)
        }
    }

    /// The store's version; when another process changed it, the book forgets the notes it read,
    /// so the reads that follow see the other process's change.
    private func checkStore(knownVersion: Int) throws(NoteBookError) -> StoreCheck {
        let version = try book.externalChangeToken()
        let changed = version != knownVersion
        if changed { book.forgetReadNotes() }
        return StoreCheck(version: version, changed: changed)
    }

    /// Why an image file is refused: the reason first, then the file's name, so a long path
    /// cannot push the reason off screen.
    struct ImageRefusal: Error {
        let reason: String
    }

    /// Reads and checks the image file at a path as typed in the prompt.
    static func readImage(at path: String) -> Result<NoteImage, ImageRefusal> {
        let name = (path as NSString).lastPathComponent
        do {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw ImageError.unreadableFile(path: path, reason: .cannotRead(.missing(path: path))) }
            guard !isDirectory.boolValue else { throw ImageError.unreadableFile(path: path, reason: .folderNotImageFile) }
            return .success(try NoteImage(validating: try Data(contentsOf: URL(fileURLWithPath: path))))
        } catch ImageError.unreadableFile(_, let reason) {
            // The screen names the file after the reason, so the path is not repeated before it.
            return .failure(ImageRefusal(reason: "\(reason) (\(name))"))
        } catch {
            return .failure(ImageRefusal(reason: "\(error) (\(name))"))
        }
    }
}
