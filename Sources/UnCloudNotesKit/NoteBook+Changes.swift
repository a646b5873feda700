import ManagedStore

/// Noticing what other processes (a `notes attach` in another shell, a second app) wrote to the
/// store, so a long-running app is never stale and never saves over their changes blindly.
extension NoteBook {
    /// A number that changes whenever another connection commits to the store (the engine's
    /// external change token); this book's own saves leave it as it is.
    public func externalChangeToken() throws(NoteBookError) -> Int {
        do {
            return try context.store.externalChangeToken()
        } catch {
            throw .wrapping(error)
        }
    }

    /// Forgets the notes read so far, so the next reads see the store as it is now (and changes
    /// are checked against that). Every change saves at once or is undone, so nothing unsaved is
    /// dropped.
    public func forgetReadNotes() {
        readNotes = [:]
        tagNames = nil
        context.reset()
    }
}
