import Foundation
import NotesTerminalUI
import Testing
import UnCloudNotesKit

/// A store the user cannot write opens, says so at once, and refuses a change in one plain line
/// (issue #38, bug 9): never an SQLite error naming a statement after the user acted.
@Suite("A read-only store in the app")
struct ReadOnlyStoreTests {
    @Test("the status line says read-only from the first frame; a delete is refused plainly and deletes nothing")
    func readOnly() throws {
        let harness = try AppHarness()
        let book = try harness.book.address.openReadOnly()
        let app = NotesApp(book: book, storePath: "/srv/notes.sqlite", versionLabel: "v4", colors: ColorSupport(depth: .none), dates: AppHarness.dates)
        let runner = NotesEffectRunner(book: book)
        runner.perform(app.launch(), on: app)
        func screen() -> String { runner.render(app, width: 100, height: 24).lines.joined(separator: "\n") }
        #expect(screen().contains("read-only store: changes cannot be saved"))
        for key in [Key.character("d"), .character("y")] { runner.perform(app.handle(key), on: app) }
        let after = screen()
        #expect(after.contains("notes.sqlite is read-only, nothing") && after.contains("cannot write the file"), "\(after)")
        #expect(!after.contains("SQLite"))
        #expect(try harness.titles().count == 4)
    }
}
