import UnCloudNotesKit

/// The full-screen app's state as a value, and the reducers of keys and events over it: no
/// terminal, no store, no file and no thread in sight. A key or an event changes the state and
/// returns the `NotesEffect`s it needs (saving, deleting, attaching, the external editor, every
/// read of the store, and the background's work). Each screen has its own state (`ScreenStates`) and its own reducer (`*Keys.swift`);
/// `NotesFrame` is drawn from this state and what was read.
struct NotesState: ScreenLayout {
    /// What the version the app runs as can hold (images, captions, tags).
    let capabilities: NoteCapabilities
    let storePath: String
    let versionLabel: String
    /// How previews draw images (symbols unless the terminal draws pixels; see `GraphicsDetection`).
    var graphics: PreviewGraphics = .symbols
    let dates: DateText
    var screen: Screen = .list
    /// The latest status or error message, shown in the status line until the next key.
    var message: String?
    /// The store refuses changes: the status line says so for as long as the app runs.
    var storeIsReadOnly = false
    /// The list screen's state, which every other screen goes back to.
    var listScreen = ListState()
    /// Notes read for the detail view and the list's preview, until they change.
    var snapshots: [NoteID: NoteSnapshot] = [:]
    /// Notes whose read failed (gone, or unreadable): not asked for again until the store changes.
    var unreadableNotes: Set<NoteID> = []
    /// A key that needs a note not read yet: handled again once the read is back.
    var waitingKey: Key?
    /// Ctrl-S's draft, saved once the store was checked for other programs' changes to its note.
    var pendingSave: (editor: EditorState, draft: NoteDraft)?
    /// What the status line says of sync ("synced 20:41, changes waiting").
    var syncLine = SyncLine()
    var lastSync: String? { syncLine.text(dates) }
    /// Whether the background has built the search index (reloads then use it).
    var searchIndexReady = false
    var previews = PreviewCache()
    var bodyLayouts = BodyLayouts()
    /// The store's version when last read (see `catchUpWithStore`); nil until launch reads it.
    var knownExternalChangeToken: Int?
    /// Background work launch asks for, held until the first screen is drawn
    /// (`.frameDrawn`) so the first paint has the cores to itself; nil once it is drawn.
    var heldUntilFirstPaint: [NotesEffect]?
    /// The terminal's size, from the last `resize` event; screens are laid out from it.
    var size = TerminalSize(columns: 80, rows: 24)
    /// A line shown above every screen: the walkthrough names its step there.
    var banner: String?
    /// The note deleted last, which `u` brings back until the next change.
    var undoable: DeletedNote?

    init(capabilities: NoteCapabilities, storePath: String, versionLabel: String, dates: DateText) {
        self.capabilities = capabilities
        self.storePath = storePath
        self.versionLabel = versionLabel
        self.dates = dates
    }

    /// What launch reads before the first paint, as effects like every later read: the store's
    /// version (so later changes by other processes are noticed), the list's first rows and the
    /// count of notes. What it asks of the background waits for the first screen
    /// (`.frameDrawn`): the rest of the list, as after any reload, the sync status, and the
    /// sync itself when the config file asks for one at launch.
    mutating func launch(rows: Int, syncing: Bool) -> [NotesEffect] {
        heldUntilFirstPaint = [.background(.refreshSyncStatus)] + (syncing ? requestSync() : [])
        return [.checkStore(knownVersion: nil), .reload(listQuery, usingIndex: false, selecting: nil, counting: true, firstPage: rows)]
    }

    // MARK: Keys

    /// Handles one key. Nothing here writes the store: what the key needs done is returned.
    mutating func handle(_ key: Key) -> [NotesEffect] {
        // A resize lays the screens out again: it answers no question and keeps the message on screen.
        if case .resize(let columns, let rows) = key {
            size = TerminalSize(columns: columns, rows: rows)
            return []
        }
        // Keys act only on what the user can see: in a window too small to show the screen,
        // only q on the list (where it quits) works, never a delete confirmed blind.
        if isTooSmall {
            guard case .list = screen, listKeys.action(for: key) == .quit else { return [] }
        }
        message = nil
        return dispatch(key)
    }

    /// The key to the screen it is for; also a key handled again once the note it waited for is read.
    mutating func dispatch(_ key: Key) -> [NotesEffect] {
        switch Self.anywhereKeys.action(for: key) {
        case .quit: return quitAsking()
        // The terminal suspends on Ctrl-Z before it is a key; one that arrives all the same does nothing.
        case .suspend: return []
        case nil: break
        }
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

    var selectedNoteID: NoteID? { listScreen.selectedNoteID }

    /// A note's content as read; nil when it is not read yet, gone or unreadable.
    func snapshot(of id: NoteID) -> NoteSnapshot? {
        snapshots[id]
    }

    /// The note a key needs, or the read it waits for: the key is handled again when the note is
    /// back (`receive(.noteRead)`). A note that cannot be read leaves the key doing nothing.
    mutating func waitForNote(_ id: NoteID, then key: Key) -> [NotesEffect] {
        guard !unreadableNotes.contains(id) else { return [] }
        waitingKey = key
        return [.readNote(id)]
    }

    /// After another program changed the store (or the app deleted a note): notes and previews
    /// read so far may be stale, so they are read and made again; the list is read again,
    /// keeping the selection on `noteID`.
    mutating func storeChanged(selecting noteID: NoteID? = nil) -> [NotesEffect] {
        snapshots = [:]
        unreadableNotes = []
        bodyLayouts.removeAll()
        previews.removeAll()
        return [.background(.cancelPreviews), reload(selecting: noteID)]
    }

    /// After the app's own change to one note: only that note is read again (its row, its
    /// content), its previews kept unless its images changed. The list is read again only when
    /// the change can move the note in it or out of it (`listMayChange`). A pin keeps the
    /// note's content and its wrapped body (`pinned`): a 10 MB note is not read and laid out
    /// again for a flag its row shows.
    mutating func noteChanged(_ id: NoteID, imagesChanged: Bool = false, listMayChange: Bool = true, pinned: Bool? = nil) -> [NotesEffect] {
        if let pinned, snapshots[id] != nil {
            snapshots[id]?.pinned = pinned
        } else {
            snapshots[id] = nil
            bodyLayouts.remove(id)
        }
        unreadableNotes.remove(id)
        listScreen.notes.forget(id)
        if imagesChanged { previews.remove(note: id) }
        guard listMayChange else {
            if selectedNoteID != id, let index = listScreen.notes.ids.firstIndex(of: id) { listScreen.selected = index }
            return []
        }
        return [reload(selecting: id, counting: false)]
    }

    /// Whether editing a note's text can change where it lists: the modified order moves it to
    /// the top, and a search or tag filter may take it in or out.
    var listDependsOnNoteText: Bool {
        listScreen.sort == .modified || !listScreen.searchText.isEmpty || listScreen.tagFilter != nil
    }

    /// Reading the list again (after a change or a new search), keeping the selection on
    /// `noteID`, or on the selected note. Previews stay cached: a search keystroke must not
    /// decode images again.
    /// `counting`: the number of notes may have changed (a note added, deleted or restored,
    /// another program's change), so the status line's count is read again.
    func reload(selecting noteID: NoteID? = nil, counting: Bool = true) -> NotesEffect {
        .reload(listQuery, usingIndex: searchIndexReady, selecting: noteID ?? selectedNoteID, counting: counting,
                firstPage: Self.firstPage(below: listScreen.selected))
    }

    /// The most rows a list read again reads at once, wherever the selection is: a selection
    /// deeper than that waits for the rest (`pendingSelection`), so no key reads every note.
    static let firstPageLimit = 2_000

    /// How many rows to read at once: enough to keep the selection's row on screen, up to
    /// `firstPageLimit`.
    static func firstPage(below selected: Int) -> Int {
        min(selected + BackgroundSearch.firstPageSize, firstPageLimit)
    }

    /// What the list shows: the search, the tag picked and the order.
    var listQuery: NoteQuery { listScreen.query }

    /// Shows the list read again; this answer is newer than any search under way. Only its
    /// first page (`isComplete` false): the rest is read in the background, as a search's.
    mutating func showList(_ ids: [NoteID], total: Int?, selecting noteID: NoteID?, isComplete: Bool) -> [NotesEffect] {
        listScreen.show(ids, total: total, selecting: noteID)
        guard !isComplete else { return [.background(.cancelSearches)] }
        listScreen.awaitRest(selecting: noteID)
        return [.background(.cancelSearches), .background(.readRestOfList(listQuery))]
    }

    /// Ctrl-C quits, unless a draft would be lost: then it asks, as Esc does in the editor.
    mutating func quitAsking() -> [NotesEffect] {
        guard let draft = unsavedDraft(in: screen) else { return [.quit] }
        let editor = Screen.editor(draft)
        screen = .confirm(ConfirmState(purpose: .quitDiscarding, question: "Quit and discard your changes? y/N", previous: editor))
        return []
    }

    /// What the user typed and has not saved, as a draft file keeps it: the title on the first
    /// line, then the body, then the tags' field on a last line when it holds any; nil when
    /// nothing typed would be lost.
    var unsavedText: String? {
        guard let editor = unsavedDraft(in: screen) ?? pendingSave?.editor else { return nil }
        var text = editor.title.text + "\n" + editor.body.text
        if let tags = editor.tags?.text, !tags.isEmpty { text += (text.hasSuffix("\n") ? "" : "\n") + "tags: " + tags + "\n" }
        return text
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

    var supportsImages: Bool { capabilities.hasImages }

    var supportsCaptions: Bool { capabilities.hasCaptions }

    /// v5: tags, pins and the modified order.
    var supportsTags: Bool { capabilities.hasTags }

    mutating func openEditor(for snapshot: NoteSnapshot?) {
        let title = snapshot?.title ?? "", body = snapshot?.body ?? ""
        let tags = TagName.field(snapshot?.tags ?? (listScreen.tagFilter.map { [$0] } ?? []))
        screen = .editor(EditorState(noteID: snapshot?.id, title: TextBuffer(title, allowsNewlines: false),
                                     body: TextBuffer(body, allowsNewlines: true),
                                     tags: supportsTags ? TextBuffer(tags, allowsNewlines: false) : nil, focus: .title,
                                     originalTitle: title, originalBody: body, originalTags: supportsTags ? tags : ""))
    }

    mutating func promptForImage(for noteID: NoteID, returningTo previous: Screen) {
        screen = .prompt(.attachImage(to: noteID, returningTo: previous))
    }
}
