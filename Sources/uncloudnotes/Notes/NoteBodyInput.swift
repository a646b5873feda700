import ArgumentParser
import Foundation
import ManagedStore
import NotesTerminalUI
import UnCloudNotesKit

/// Where `notes add` and `notes edit` take a body from, chosen so that nothing is erased or added
/// empty by accident: `--body TEXT`; else standard input (`--body -`, or a pipe), which must not
/// be empty unless `--allow-empty`; else, at a terminal, the user's editor, like `git commit`
/// (an unchanged or empty result writes nothing).
struct NoteBodyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The note's body; - reads standard input.", valueName: "text"))
    var body: String?
    @Flag(help: "Accept an empty body from standard input (refused otherwise, so an empty pipe never erases a body or adds an empty note).")
    var allowEmpty = false

    /// The body the user gave, or nil when they gave none. `editing` is the text to open the
    /// editor on when standard input is a terminal, or nil to never open it (then an empty pipe,
    /// without `--body -`, gives no body rather than a refusal: `notes edit --title` keeps the
    /// body). An empty standard input is refused otherwise, as a usage error.
    func resolve(editing initialText: String?) throws -> String? {
        if let body, body != "-" { return body }
        if body == "-" || isatty(STDIN_FILENO) != 1 {
            let text = readStandardInput()
            if !text.isEmpty || allowEmpty { return text }
            guard body == "-" || initialText != nil else { return nil }
            throw ValidationError("standard input was empty, so nothing was written (add --allow-empty to store an empty body)")
        }
        guard let initialText else { return nil }
        return try editInEditor(initialText)
    }

    /// Runs `work` (opening the store, saving). When it fails after `typed` came from standard
    /// input or the editor, the text is kept in the drafts folder and the error says where: a
    /// pipe cannot be read twice, and an editor's text was typed once.
    func keepingTyped<Result>(_ typed: String, _ work: () throws -> Result) throws -> Result {
        do {
            return try work()
        } catch {
            guard body == nil || body == "-", !typed.isEmpty else { throw error }
            let kept: URL
            do {
                kept = try Drafts.keep(Data(typed.utf8), named: "note.txt", in: StoreLocation.draftsFolder())
            } catch let keeping {
                throw CommandFailure("\(ErrorText.oneLine(error)); your text could not be kept either (\(ErrorText.oneLine(keeping)))")
            }
            throw CommandFailure("\(ErrorText.oneLine(error)); your text is kept in \(kept.path)")
        }
    }

    private func editInEditor(_ initialText: String) throws -> String {
        let editor = ExternalEditor.fromEnvironment()
        let edited = Self.droppingFinalNewline(try editor.edit(initialText.isEmpty ? "" : initialText + "\n"))
        if edited.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw CommandFailure("the body from the editor was empty, so nothing was written")
        }
        if edited == initialText {
            throw CommandFailure("the body was left unchanged in the editor, so nothing was written")
        }
        return edited
    }

    /// All of standard input, without the final newline `echo` adds; bytes that are not UTF-8
    /// are replaced, and stderr says so.
    private func readStandardInput() -> String {
        Self.droppingFinalNewline(NonUTF8Notice.decoded(FileHandle.standardInput.readDataToEndOfFile(), from: "standard input"))
    }

    private static func droppingFinalNewline(_ text: String) -> String {
        text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
