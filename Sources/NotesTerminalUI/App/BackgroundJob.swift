import UnCloudNotesKit

/// Work a key or an event asks of the background, which `NotesApp` starts; what comes of it
/// arrives through `NotesApp.receiveBackgroundWork`.
enum BackgroundJob: Equatable {
    /// Search the notes for this query, superseding any search under way.
    case search(NoteQuery)
    /// Read the rest of a list whose first page is shown: the whole answer only, no first page
    /// ahead of it (which would shrink the list shown).
    case readRestOfList(NoteQuery)
    /// Drop the searches under way: the list was read again meanwhile.
    case cancelSearches
    /// `S`: sync through git.
    case sync
    /// Read the sync status again (last sync, changes waiting): another process changed the store.
    case refreshSyncStatus
    /// Drop the previews under way: the images they show may have changed.
    case cancelPreviews
}
