import ArgumentParser
import UnCloudNotesKit

/// The note a notes command works on, by the number `notes list` shows: one definition, with
/// one help text and one message for a bad number, for every command that takes a note.
struct NoteArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The note's number, as notes list shows it.", valueName: "note"),
              transform: { NoteID(Int64(try WholeNumber.counted($0))) })
    var id: NoteID
}
