import ArgumentParser
import UnCloudNotesKit

/// The note a notes command works on, by the number `notes list` shows or the start of its
/// identifier: one definition, with one help text and one message for a bad value, for every
/// command that takes a note.
struct NoteArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The note's number, as notes list shows it, or (v5) the start of its identifier, at least 4 hex digits (as git takes a short hash; digits alone are a number).",
                                 valueName: "note"),
              transform: { text in
                  // Digits (signed or not) are a number, with the number's own messages.
                  if text.drop(while: { $0 == "-" || $0 == "+" }).allSatisfy(\.isASCIIDigit) {
                      return .number(NoteID(Int64(try WholeNumber.counted(text))))
                  }
                  guard let reference = NoteReference(text) else { throw NoteReferenceError(text: text) }
                  return reference
              })
    var reference: NoteReference

    /// The note's ID in `book` (a prefix is looked up there).
    func id(in book: NoteBook) throws -> NoteID {
        try book.noteID(reference)
    }
}

/// A note given as neither a number nor an identifier's start.
struct NoteReferenceError: Error, CustomStringConvertible {
    let text: String

    var description: String {
        "it must be a whole number, written in digits, or the start of a note's identifier (at least 4 hex digits)"
    }
}
