import UnCloudNotesKit

/// Work the state asks of the background (for a key, an event, launch or the next frame),
/// returned as `NotesEffect.background` and
/// started by `NotesEffectRunner` on the app's background queues; what comes of it arrives as
/// events through `NotesApp.receiveBackgroundWork`.
public enum BackgroundJob: Equatable, Sendable {
    /// Search the notes for this query, superseding any search under way.
    case search(NoteQuery)
    /// Read the rest of a list whose first page is shown: the whole answer only, no first page
    /// ahead of it (which would shrink the list shown).
    case readRestOfList(NoteQuery)
    /// Drop the searches under way: the list was read again meanwhile.
    case cancelSearches
    /// `S`: sync through git.
    case sync
    /// Read the sync status again (last sync, changes waiting): at launch, and after another
    /// process changed the store.
    case refreshSyncStatus
    /// Make the preview of an image at the size and in the graphics of its key (`.previewsMade`).
    case makePreview(PreviewKey, NoteImage)
    /// Drop the previews under way: the images they show may have changed.
    case cancelPreviews
}
