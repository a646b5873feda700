import Foundation
import ManagedStore

/// A refused or failed note operation. Callers react to the case (the screens ask before
/// replacing on `.noteHasItsImage`, the command line points at `notes list` on `.noSuchNote`); the
/// description is the one-line message for the user. Engine failures keep their cause.
public enum NoteBookError: Error, CustomStringConvertible {
    /// The title is empty or only white space.
    case emptyTitle
    /// v1: notes have no images.
    case noImagesInThisVersion(version: String)
    /// v2: a note holds one image; more than one was given.
    case oneImagePerNote(version: String)
    /// v2: the note has its one image already; attaching again must say it replaces it.
    case noteHasItsImage(NoteID, version: String)
    /// Only v4's image attachments have captions.
    case noCaptionsInThisVersion(version: String)
    /// Tags, pins and modified dates are v5's.
    case notInThisVersion(NoteFeature, version: String)
    /// A tag name that is empty, holds a comma (the editor's separator) or a control character.
    case badTagName(String)
    case noSuchTag(String)
    /// `undo` of a delete whose note is back already, or whose identifier a note holds again.
    case alreadyRestored(title: String)
    /// The note is not in the store (deleted, perhaps by another process).
    case noSuchNote(NoteID)
    /// No note's identifier starts with the prefix given for a note.
    case noNoteWithIdentifierPrefix(String)
    /// Several notes' identifiers start with the prefix: a longer one is needed.
    case ambiguousIdentifierPrefix(String, matches: Int)
    /// The attachment is not in the store.
    case noSuchAttachment(AttachmentID)
    /// A note object with no key in the store (never saved): the book hands on saved notes only,
    /// so this is reported rather than shown as a note numbered 0.
    case unsavedNote
    /// The store's largest display index (a damaged or hand-edited store) leaves no next one.
    case displayIndexExhausted(store: String, index: Int64)
    /// Another process changed or deleted this note since it was read; nothing was written.
    case conflict(NoteID?, underlying: ContextError)
    /// An image could not be read (its header, its size).
    case image(underlying: ImageError)
    /// The store failed to read or write (validation, disk, a damaged row); nothing was written.
    case store(underlying: any Error)

    /// One line for the command line and the screens' status line.
    public var description: String {
        switch self {
        case .emptyTitle:
            "empty titles are refused: type a title"
        case .noImagesInThisVersion(let version):
            "notes of \(version) have no images (run as v2 or later)"
        case .oneImagePerNote(let version):
            "notes of \(version) hold one image (run as v3 or later for more)"
        case .noteHasItsImage(let id, let version):
            "note \(id) already has its one image (\(version) holds one per note); nothing was changed"
        case .noCaptionsInThisVersion(let version):
            "images of \(version) have no captions (run as v4)"
        case .notInThisVersion(let feature, let version):
            "notes of \(version) have no \(feature.rawValue) (run as v5)"
        case .badTagName(let name):
            name.trimmingCharacters(in: .whitespaces).isEmpty
                ? "a tag name must not be empty"
                : "a tag name holds no commas or control characters: \(TerminalText.field(name))"
        case .noSuchTag(let name):
            "there is no tag \(TerminalText.field(name))"
        case .alreadyRestored(let title):
            "“\(TerminalText.field(title))” is in the store again; nothing was restored"
        case .noSuchNote(let id):
            "there is no note \(id)"
        case .noNoteWithIdentifierPrefix(let prefix):
            "no note's identifier starts with \(prefix)"
        case .ambiguousIdentifierPrefix(let prefix, let matches):
            "\(matches) notes' identifiers start with \(prefix); give more of it"
        case .noSuchAttachment(let id):
            "there is no \(id)"
        case .unsavedNote:
            "a note was not saved, so it has no number; nothing else was changed"
        case .displayIndexExhausted(let store, let index):
            "\(store): a note's display index is \(index), the largest possible; export the notes and import them into a new store"
        case .conflict(_, let underlying):
            "\(underlying)"
        case .image(let underlying):
            "\(underlying)"
        case .store(let underlying):
            "\(underlying)"
        }
    }

    /// An engine error as the case callers react to.
    static func wrapping(_ error: any Error) -> NoteBookError {
        switch error {
        case let error as NoteBookError:
            error
        case let error as ImageError:
            .image(underlying: error)
        case let error as ContextError:
            if case .conflict(let entity, let primaryKey) = error {
                .conflict(entity == NoteBook.noteEntity ? NoteID(primaryKey) : nil, underlying: error)
            } else {
                .store(underlying: error)
            }
        default:
            .store(underlying: error)
        }
    }
}
