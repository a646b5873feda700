import Foundation

/// The effects only a terminal can carry out, for `NotesEffectRunner`: programs that take the
/// screen over or open beside it. Each returns the event that tells the app how it went.
public protocol TerminalEffects {
    /// Edits the text in `$VISUAL`/`$EDITOR`: `.edited` with the text, or `.editorFailed`.
    func edit(_ text: String) -> NotesEvent
    /// Shows the image in the system's viewer: `.imageOpened`, saying what happened.
    func openImage(_ data: Data, named name: String) -> NotesEvent
}
