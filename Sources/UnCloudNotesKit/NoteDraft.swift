import Foundation

/// What a user typed for a note, before it is saved. The title rule lives here, once: a note
/// needs a title that is not only white space, and it is stored trimmed.
public struct NoteDraft: Equatable, Sendable {
    /// The title as typed; `hasTitle` says whether it is enough to save.
    public var title: String
    /// The body as typed, saved as it is.
    public var body: String
    /// v5: the note's tags; nil leaves a note's tags as they are (and adds a note without).
    public var tags: [String]?

    /// A draft of `title`, `body` and (v5) `tags`, unchecked until it is saved.
    public init(title: String, body: String, tags: [String]? = nil) {
        self.title = title
        self.body = body
        self.tags = tags
    }

    /// The title as it is stored.
    public var trimmedTitle: String { title.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Whether the draft can be saved; screens check it to point at the title field.
    public var hasTitle: Bool { !trimmedTitle.isEmpty }

    /// The draft as it is stored, or `.emptyTitle`.
    func checked() throws(NoteBookError) -> NoteDraft {
        guard hasTitle else { throw .emptyTitle }
        return NoteDraft(title: trimmedTitle, body: body, tags: try tags.map { names throws(NoteBookError) in try TagName.checked(names) })
    }
}
