import Foundation

/// What a user typed for a note, before it is saved. The title rule lives here, once: a note
/// needs a title that is not only white space, and it is stored trimmed.
public struct NoteDraft: Equatable, Sendable {
    /// The title as typed; `hasTitle` says whether it is enough to save.
    public var title: String
    /// The body as typed, saved as it is.
    public var body: String

    /// A draft of `title` and `body`, unchecked until it is saved.
    public init(title: String, body: String) {
        self.title = title
        self.body = body
    }

    /// The title as it is stored.
    public var trimmedTitle: String { title.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Whether the draft can be saved; screens check it to point at the title field.
    public var hasTitle: Bool { !trimmedTitle.isEmpty }

    /// The draft as it is stored, or `.emptyTitle`.
    func checked() throws(NoteBookError) -> NoteDraft {
        guard hasTitle else { throw .emptyTitle }
        return NoteDraft(title: trimmedTitle, body: body)
    }
}
