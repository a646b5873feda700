import UnCloudNotesKit

extension NotesState {
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

        /// The attach prompt's first question: the image file's path.
        static func attachImage(to noteID: NoteID, returningTo previous: Screen) -> Self {
            Self(purpose: .attachImage(noteID), input: TextBuffer(allowsNewlines: false), previous: previous)
        }
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

        /// "Delete the note …?"
        static func deleting(_ note: NoteSnapshot, returningTo previous: Screen) -> Self {
            Self(purpose: .deleteNote(note.id), question: "Delete the note “\(note.title)”? y/N", previous: previous)
        }
    }
}
