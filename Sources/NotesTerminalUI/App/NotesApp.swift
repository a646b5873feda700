import Foundation
import UnCloudNotesKit

/// The full-screen app's state and key handling, with no terminal in sight: keys come in as
/// `Key`s and change the state, returning the `NotesEffect`s they need (saving, deleting,
/// attaching, the external editor); a runner carries them out and hands back `NotesEvent`s.
/// `frame()` reads what the screen shows and `NotesFrame.render()` draws it into a `CellBuffer`,
/// so every screen can be tested as text and every key by the effects it returns.
public final class NotesApp: ScreenLayout {
    indirect enum Screen {
        case list
        case detail(DetailState)
        case editor(EditorState)
        case prompt(PromptState)
        case confirm(ConfirmState)
        case help(HelpState)
        /// v5: `t` picks a tag to filter the list by.
        case tagPicker(TagPickerState)
    }

    struct TagPickerState {
        /// "All notes" first (no filter), then every tag with its count.
        var tags: [TagCount]
        var selected = 0
        var previous: Screen
    }

    struct HelpState {
        var previous: Screen
        var scroll = 0
    }

    struct DetailState {
        var noteID: NoteID
        /// Where the first line shown starts, as an offset in the body (`BodyScrolling`).
        var top = 0
        var attachment = 0
    }

    struct EditorState {
        /// The editor's fields, in the order Tab goes through them.
        enum Field { case title, tags, body }

        var noteID: NoteID?
        var title: TextBuffer
        var body: TextBuffer
        /// v5: the note's tags, comma-separated (nil before v5).
        var tags: TextBuffer?
        var focus: Field
        let originalTitle: String
        let originalBody: String
        let originalTags: String

        var focusOnBody: Bool { focus == .body }

        var hasChanges: Bool { title.text != originalTitle || body.text != originalBody || (tags?.text ?? "") != originalTags }

        /// The draft to save; `.badTagName` when the tags field holds a name that is refused.
        func draft() throws(NoteBookError) -> NoteDraft {
            NoteDraft(title: title.text, body: body.text, tags: try tags.map { field throws(NoteBookError) in try TagName.parseField(field.text) })
        }

        /// The field after (or before) the focused one.
        func field(after: Bool) -> Field {
            let fields: [Field] = tags == nil ? [.title, .body] : [.title, .tags, .body]
            let index = fields.firstIndex(of: focus) ?? 0
            return fields[(index + (after ? 1 : fields.count - 1)) % fields.count]
        }
    }

    struct PromptState {
        enum Purpose {
            case attachImage(NoteID)
            /// v4: the new image's caption, asked after its path (the path prompt is `previous`).
            case newImageCaption(NoteID, path: String)
            case caption(NoteID, AttachmentSnapshot)
        }
        var purpose: Purpose
        var input: TextBuffer
        var error: String?
        var completions: [String] = []
        var previous: Screen
    }

    struct ConfirmState {
        enum Purpose {
            case deleteNote(NoteID)
            case deleteAttachment(NoteID, AttachmentID)
            case discardEdits(EditorState)
            /// Ctrl-C with an unsaved draft: quit only when the user says so.
            case quitDiscarding
            /// v2 holds one image per note: attaching another replaces it.
            case replaceImage(NoteID, path: String)
            /// The note was changed by another program while being edited: keep both.
            case saveAsCopy(EditorState)
        }
        var purpose: Purpose
        var question: String
        var previous: Screen
    }

    let book: NoteBook
    public let storePath: String
    public let versionLabel: String
    public let colors: ColorSupport
    /// How previews draw images (symbols unless the terminal draws pixels; see `GraphicsDetection`).
    public var graphics: PreviewGraphics = .symbols
    let dates: DateText
    var screen: Screen = .list
    /// The latest status or error message, shown in the status line until the next key.
    var message: String?
    var list = NoteList()
    /// Notes read for the detail view and the list's preview, until the store changes.
    var snapshots: [NoteID: NoteSnapshot] = [:]
    var selected = 0
    /// While typing a search; the filter applies as it is typed.
    var searchInput: TextBuffer?
    var searchText = ""
    /// The search typed last runs here; `searchPending` until its full answer is taken.
    let backgroundSearch: BackgroundSearch
    let backgroundPreviews: BackgroundPreviews
    /// `S`: syncs through git off the key loop (docs/sync.md).
    let backgroundSync: BackgroundSync
    /// What the status line says of sync ("synced 20:41, changes waiting").
    var syncLine = SyncLine()
    var lastSync: String? { syncLine.text(dates) }
    var searchPending = false
    var noteCount = 0
    var previews = PreviewCache()
    var bodyLayouts = BodyLayouts()
    /// The store's version when last read (see `catchUpWithStore`).
    var knownStoreVersion = 0
    /// The terminal's size, from the last `resize` event; screens are laid out from it.
    var size = TerminalSize(columns: 80, rows: 24)
    /// The list's first visible row, kept so the list scrolls only as far as the selection needs.
    var listTop = 0
    /// A line shown above every screen: the walkthrough names its step there.
    public var banner: String?
    /// The list's order (`s`): by creation or (v5) modification date, pinned notes first.
    var sort = NoteSort.created
    /// v5: only notes with this tag (`t`).
    var tagFilter: String?
    /// The note deleted last, which `u` brings back until the next change.
    var undoable: DeletedNote?

    /// - Parameters:
    ///   - searchExecutor: runs searches off the key loop (tests pass one they drive by hand).
    ///   - indexExecutor: builds the search index, apart from searches so they need not wait for it.
    ///   - previewExecutor: decodes and renders image previews.
    ///   - syncExecutor: runs `S`'s sync.
    public init(book: NoteBook, storePath: String, versionLabel: String, colors: ColorSupport,
                dates: DateText = .userLocale,
                searchExecutor: any BackgroundExecutor = SerialQueueExecutor(label: "uncloudnotes.search"),
                indexExecutor: any BackgroundExecutor = SerialQueueExecutor(label: "uncloudnotes.search-index"),
                previewExecutor: any BackgroundExecutor = SerialQueueExecutor(label: "uncloudnotes.previews"),
                syncExecutor: any BackgroundExecutor = SerialQueueExecutor(label: "uncloudnotes.sync")) throws {
        self.book = book
        backgroundSearch = BackgroundSearch(store: book.address, searchExecutor: searchExecutor, indexExecutor: indexExecutor)
        backgroundPreviews = BackgroundPreviews(executor: previewExecutor)
        backgroundSync = BackgroundSync(storeURL: book.address.url, version: versionLabel, executor: syncExecutor)
        self.storePath = storePath
        self.versionLabel = versionLabel
        self.colors = colors
        self.dates = dates
        knownStoreVersion = try book.storeVersion()
        // The first screens only: every note's ID comes from the date index alone, but at
        // 1,000,000 notes that still takes a while, which the first paint need not wait for.
        list = NoteList(ids: try book.noteIDs(page: ListPage(limit: Self.launchRows)))
        noteCount = try book.count()
    }

    /// How many rows launch reads before the first paint: more than any terminal shows.
    public static let launchRows = 500

    /// What to do once the first screen is painted: read the whole list when launch read only
    /// its start (the loop carries it out, as any reload).
    public func afterFirstPaint() -> [NotesEffect] {
        backgroundSync.refreshStatus()
        return list.count < noteCount ? [reload()] : []
    }

    // MARK: Keys

    /// Handles one key. Nothing here writes the store: what the key needs done is returned.
    public func handle(_ key: Key) -> [NotesEffect] {
        // A resize lays the screens out again: it answers no question and keeps the message on screen.
        if case .resize(let columns, let rows) = key {
            size = TerminalSize(columns: columns, rows: rows)
            return []
        }
        message = nil
        if key == .control("c") { return quitAsking() }
        switch screen {
        case .list: return handleList(key)
        case .detail(let state): return handleDetail(key, state)
        // After the switch, which holds the screen it looks at: the editor changes its draft in place.
        case .editor: break
        case .prompt(let state): return handlePrompt(key, state)
        case .confirm(let state): return handleConfirm(key, state)
        case .help(let state): return handleHelp(key, state)
        case .tagPicker(let state): return handleTagPicker(key, state)
        }
        return handleEditor(key)
    }

    // MARK: Shared

    var selectedNoteID: NoteID? {
        guard selected >= 0, selected < list.count else { return nil }
        return list.ids[selected]
    }

    /// A note's content, read once until the store changes; nil (with a message) when it is gone
    /// or cannot be read.
    func snapshot(of id: NoteID) -> NoteSnapshot? {
        if let known = snapshots[id] { return known }
        do {
            let snapshot = try book.snapshot(of: id)
            snapshots[id] = snapshot
            return snapshot
        } catch .noSuchNote {
            return nil
        } catch {
            message = "cannot read note \(id): \(error)"
            return nil
        }
    }

    /// The list row at `index`, reading the rows of a screenful around it when not read yet.
    func row(at index: Int) -> NoteRow? {
        if let known = list.row(at: index) { return known }
        do {
            list.remember(try book.rows(of: list.missingRows(in: index..<(index + max(listPage, 1) * 2))))
        } catch {
            message = "cannot read the list: \(error)"
        }
        return list.row(at: index)
    }

    /// After the store changed: notes and previews read so far may be stale, so they are read
    /// and made again; the list is read again, keeping the selection on `noteID`.
    func storeChanged(selecting noteID: NoteID? = nil) -> [NotesEffect] {
        snapshots = [:]
        bodyLayouts.removeAll()
        previews.removeAll()
        backgroundPreviews.cancelAll()
        return [reload(selecting: noteID)]
    }

    /// Reading the list again (after a change or a new search), keeping the selection on
    /// `noteID`, or on the selected note. Previews stay cached: a search keystroke must not
    /// decode images again.
    func reload(selecting noteID: NoteID? = nil) -> NotesEffect {
        .reload(listQuery, usingIndex: backgroundSearch.isIndexReady, selecting: noteID ?? selectedNoteID)
    }

    /// What the list shows: the search, the tag picked and the order.
    var listQuery: NoteQuery { NoteQuery(search: searchText, tag: tagFilter, sort: sort) }

    /// Shows the list read again; this answer is newer than any search under way.
    func showList(_ ids: [NoteID], total: Int, selecting noteID: NoteID?) {
        backgroundSearch.cancelAll()
        searchPending = false
        list = NoteList(ids: ids)
        noteCount = total
        if let noteID, let index = ids.firstIndex(of: noteID) {
            selected = index
        } else {
            selected = min(selected, max(0, list.count - 1))
        }
    }

    /// Ctrl-C quits, unless a draft would be lost: then it asks, as Esc does in the editor.
    func quitAsking() -> [NotesEffect] {
        guard let draft = unsavedDraft(in: screen) else { return [.quit] }
        let editor = Screen.editor(draft)
        screen = .confirm(ConfirmState(purpose: .quitDiscarding, question: "Quit and discard your changes? y/N", previous: editor))
        return []
    }

    /// The editor with unsaved changes under the current screen (a question or help may be over it).
    private func unsavedDraft(in screen: Screen) -> EditorState? {
        switch screen {
        case .editor(let state): return state.hasChanges ? state : nil
        case .confirm(let state): return unsavedDraft(in: state.previous)
        case .prompt(let state): return unsavedDraft(in: state.previous)
        case .help(let state): return unsavedDraft(in: state.previous)
        case .list, .detail, .tagPicker: return nil
        }
    }

    var supportsImages: Bool { book.capabilities.hasImages }

    var supportsCaptions: Bool { book.capabilities.hasCaptions }

    /// v5: tags, pins and the modified order.
    var supportsTags: Bool { book.capabilities.hasTags }

    func openEditor(for snapshot: NoteSnapshot?) {
        let title = snapshot?.title ?? "", body = snapshot?.body ?? ""
        let tags = TagName.field(snapshot?.tags ?? (tagFilter.map { [$0] } ?? []))
        screen = .editor(EditorState(noteID: snapshot?.id, title: TextBuffer(title, allowsNewlines: false),
                                     body: TextBuffer(body, allowsNewlines: true),
                                     tags: supportsTags ? TextBuffer(tags, allowsNewlines: false) : nil, focus: .title,
                                     originalTitle: title, originalBody: body, originalTags: supportsTags ? tags : ""))
    }

    func promptForImage(for noteID: NoteID, returningTo previous: Screen) {
        screen = .prompt(PromptState(purpose: .attachImage(noteID), input: TextBuffer(allowsNewlines: false), previous: previous))
    }
}
