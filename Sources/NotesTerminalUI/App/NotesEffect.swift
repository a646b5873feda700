import Foundation
import NotesSync
import UnCloudNotesKit

/// What handling a key (or an event) asks the runner to do. The screens read and change no store,
/// read no file, start no thread and run no program themselves: `NotesEffectRunner` carries out
/// every effect (the store's reads and writes, the background's jobs, the terminal's editor and
/// viewer) and feeds each outcome back as a `NotesEvent`, as Bubble Tea's commands return
/// messages. Only quitting is left to the terminal loop, which it ends (and, for a runner given no
/// terminal, the editor and the viewer).
public enum NotesEffect: Equatable, Sendable {
    case quit
    /// Start work off the key loop (a search, a preview, a sync); its outcome arrives later, as
    /// events through `NotesApp.receiveBackgroundWork`.
    case background(BackgroundJob)
    /// Edit this text in `$VISUAL`/`$EDITOR`; the result comes back as `.edited`.
    case openEditor(String)
    /// Show this image in the system's viewer, as a file of this name (`ImageViewer`); what
    /// happened comes back as `.imageOpened`.
    case openImage(Data, name: String)
    /// Save the draft over the note, or as a new note when there is none.
    case save(NoteDraft, over: NoteID?)
    /// Save the draft as a new note, keeping the one another program changed meanwhile.
    case saveAsCopy(NoteDraft)
    case delete(NoteID)
    /// v5: pin or unpin.
    case setPinned(Bool, NoteID)
    /// Bring back the note deleted last (`u` after `d`).
    case restore(DeletedNote)
    case deleteAttachment(AttachmentID, of: NoteID)
    /// Read and check the image file, then attach it with its caption (v4 stores it; v2: `replacing`
    /// its one image).
    case attach(path: String, to: NoteID, caption: String, replacing: Bool)
    case setCaption(String, of: AttachmentID, note: NoteID)
    /// Read the list again, for this query (search, tag, order), keeping the selection on
    /// `selecting`: its first page now, the rest in the background, so no key waits for a read
    /// of every note. `counting`: count the store's notes too (only a change of their number
    /// needs it: a count is a scan). `firstPage`: how many notes to read now (enough to cover
    /// the selection's row).
    case reload(NoteQuery, usingIndex: Bool, selecting: NoteID?, counting: Bool, firstPage: Int)
    /// Read the rows of these notes (the list's visible window): `.rowsRead`.
    case readRows([NoteID])
    /// Read the note a screen shows or a key needs: `.noteRead`.
    case readNote(NoteID)
    /// Read every tag with its count, for the tag picker: `.tagsRead`.
    case readTags
    /// Compare the store's version with the one the app knows (nil at launch: none yet); when
    /// another process changed the store meanwhile, the book forgets the notes it read: `.storeChecked`.
    case checkStore(knownVersion: Int?)
    /// Complete the attach prompt's path from the folder it names: `.pathCompleted`.
    case completePath(String)
}

/// What came of an effect, fed back to `NotesApp.receive`.
public enum NotesEvent {
    /// The external editor's text; nil when it failed or was cancelled.
    case edited(String?)
    case editorFailed(String)
    /// The viewer was started, or why not: said in the status line.
    case imageOpened(String)
    case saved(NoteID, NoteSaving)
    /// The note as it was, for undo; nil when another program had deleted it already.
    case deleted(DeletedNote?)
    /// Pinned or unpinned; `changed` false when another program had done it already.
    /// `afterOutsideChange`: the note as read was stale (another program saved it), so it was
    /// read again before the pin was set.
    case pinned(NoteID, Bool, changed: Bool, afterOutsideChange: Bool)
    /// The note to pin or unpin was deleted by another program.
    case pinnedNoteGone(NoteID)
    case restored(NoteID)
    case attachmentDeleted(of: NoteID)
    case attached(to: NoteID, imageCount: Int)
    /// The image file was refused (missing, a folder, not an image): the prompt says why.
    case imageRefused(String)
    /// v2: the note has its one image; the user is asked before it is replaced.
    case replaceAsked(NoteID, path: String, title: String)
    case captionSaved(NoteID)
    /// The list's first page, or all of it when `isComplete`; `total` when counted.
    case listRead([NoteID], total: Int?, selecting: NoteID?, isComplete: Bool)
    case rowsRead([NoteRow])
    /// The rows could not be read: they show blank, and are not asked for again until the list is.
    case rowsUnreadable([NoteID], NoteBookError)
    case noteRead(NoteSnapshot)
    /// The note is gone (`.noSuchNote`) or cannot be read.
    case noteUnreadable(NoteID, NoteBookError)
    case tagsRead(Result<[TagCount], NoteBookError>)
    /// The store's version now, and whether another process changed it since the app last looked.
    case storeChecked(Result<StoreCheck, NoteBookError>)
    /// The attach prompt's text completed, with the names that still match when several do.
    case pathCompleted(typed: String, text: String, candidates: [String])
    case failed(NoteBookError)
    /// A line for the status line from the terminal loop (what the terminal cannot do, quitting
    /// waiting for a sync), shown until the next key.
    case notice(String)
    /// A frame was drawn (the terminal loop sends it after each; `NotesEffectRunner.render` too):
    /// after the first, the background work launch held back starts.
    case frameDrawn
    /// The latest search's matches (its first page, or all of them when `isComplete`), or why
    /// it failed; answers of superseded searches never arrive.
    case searchAnswered([NoteID], isComplete: Bool, failure: String?)
    /// Image previews rendered in the background, each for the key it was asked for.
    case previewsMade([MadePreview])
    /// The background finished building the search index: searches and reloads use it from now on.
    case searchIndexBuilt
    /// `S`'s sync: the status line's news (the last sync, changes waiting; nil: none known).
    case syncStatusRead(SyncStatus?)
    case syncFinished(SyncOutcome)
}

/// A preview rendered in the background, for its cache key.
public struct MadePreview: Sendable {
    let key: PreviewKey
    let preview: RenderedPreview
}

/// How `S`'s sync ended: its report, or its one-line error.
public typealias SyncOutcome = Result<SyncReport, SyncFailure>

/// A sync that failed, as the one line the status bar shows.
public struct SyncFailure: Error, Sendable {
    let message: String
}

/// The store's version as `.checkStore` found it.
public struct StoreCheck: Equatable, Sendable {
    public let version: Int
    /// Whether it differs from the version the app knew (the book then forgot the notes it read).
    public let changed: Bool
}

/// How a draft was saved.
public enum NoteSaving: Equatable, Sendable {
    case updated, created, copied
}
