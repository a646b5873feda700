import Foundation
import UnCloudNotesKit

/// Carries out every effect key handling returns, and feeds each outcome back to the app as an
/// event, until nothing is left to do: the store's reads and writes (it is the only holder of the
/// book), the background's jobs (on the app's queues), and, given a terminal, the external editor
/// and the image viewer. Both the terminal loop and the tests run the app through it, so what a
/// key does is tested as it runs.
public struct NotesEffectRunner {
    let book: NoteBook
    let terminal: (any TerminalEffects)?

    /// - Parameter terminal: runs the editor and the viewer; without one (tests, the benchmark)
    ///   `perform` hands their effects back to the caller.
    public init(book: NoteBook, terminal: (any TerminalEffects)? = nil) {
        self.book = book
        self.terminal = terminal
    }

    /// Runs the effects and those the app asks for in answer to their events, then the reads the
    /// next frame needs (`NotesApp.prepareFrame`), so the frame drawn next has them.
    /// - Returns: the effects left to the caller, in order: `.quit`, which ends the terminal loop,
    ///   and, without a terminal, the editor's and the viewer's.
    @discardableResult
    public func perform(_ effects: [NotesEffect], on app: NotesApp) -> [NotesEffect] {
        var queue = effects[...]
        var leftToCaller: [NotesEffect] = []
        while true {
            while let effect = queue.popFirst() {
                if case .background(let job) = effect {
                    app.start(job)
                } else if let event = run(effect) {
                    queue += app.receive(event)
                } else {
                    leftToCaller.append(effect)
                }
            }
            // Each read ends as data or as a failure the app remembers, so this comes to an end.
            queue += app.prepareFrame()
            if queue.isEmpty { return leftToCaller }
        }
    }

    /// One frame at a size, as the terminal loop makes it: the size arrives as a `resize` event,
    /// the reads the screen needs run, the frame is drawn, and `.frameDrawn` is sent.
    public func render(_ app: NotesApp, width: Int, height: Int) -> CellBuffer {
        perform(app.size == TerminalSize(columns: width, rows: height) ? [] : app.handle(.resize(columns: width, rows: height)), on: app)
        let frame = app.frame().render()
        perform(app.receive(.frameDrawn), on: app)
        return frame
    }

    /// The outcome of one effect on the store or the terminal; nil for quitting, for background
    /// jobs (their outcomes arrive later, through `NotesApp.receiveBackgroundWork`), and for the
    /// editor and the viewer without a terminal. Package access, for tests that step effects one
    /// by one: it does not start background jobs, which only `perform` does, so no program built on
    /// the app can run effects through it and lose them.
    package func run(_ effect: NotesEffect) -> NotesEvent? {
        do {
            return try runOnStore(effect)
        } catch {
            return .failed(error)
        }
    }

    private func runOnStore(_ effect: NotesEffect) throws(NoteBookError) -> NotesEvent? {
        switch effect {
        case .quit, .background:
            return nil
        case .openEditor(let text):
            return terminal?.edit(text)
        case .openImage(let data, let name):
            return terminal?.openImage(data, named: name)
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
            do {
                do {
                    if try book.setPinned(pinned, of: id) { return .pinned(id, pinned, changed: true, afterOutsideChange: false) }
                } catch .conflict {
                    // Another program saved the note since it was read: it is read again below.
                }
                // The note as read was pinned so already, or changed since: another program's doing,
                // or a stale read. A pin is one flag, not the user's text: it is set on the note as it
                // is now (or found set already).
                book.forgetReadNotes()
                return .pinned(id, pinned, changed: try book.setPinned(pinned, of: id), afterOutsideChange: true)
            } catch .noSuchNote {
                // Another program deleted it: there is nothing to pin, and the list shown is stale.
                return .pinnedNoteGone(id)
            }
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
    private func checkStore(knownVersion: Int?) throws(NoteBookError) -> StoreCheck {
        let version = try book.externalChangeToken()
        // At launch nothing was read before: there is nothing to forget.
        let changed = knownVersion.map { $0 != version } ?? false
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
