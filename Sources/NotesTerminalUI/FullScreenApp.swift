import Foundation
import ManagedStore
import UnCloudNotesKit

/// Runs the full-screen app on a real terminal: the migration screen when the store needs
/// upgrading, then the notes. The terminal is restored however this ends.
public enum FullScreenApp {
    /// - Returns: the process exit code (0, or 1 after a failed upgrade).
    public static func run(stack: UnCloudNotesStack, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int32 {
        DisplayWidth.configureLocale()
        let screen = try TerminalScreen(environment: environment)
        defer { screen.stop() }
        guard let context = try openShowingUpgrade(stack, on: screen) else { return 1 }
        let book = NoteBook(context: context)
        let app = try NotesApp(book: book, storePath: stack.storeURL.path, versionLabel: stack.versionLabel, colors: screen.colors)
        while true {
            let size = screen.size
            screen.draw(app.render(width: size.columns, height: size.rows))
            guard let key = screen.readKey() else { continue }
            switch app.handle(key) {
            case .none:
                continue
            case .quit:
                return 0
            case .editExternally(let text):
                let result = ExternalEditor.edit(text, environment: environment, screen: screen)
                app.finishExternalEdit(result.text, error: result.error)
            }
        }
    }

    /// Opens the store, showing the migration screen while it upgrades; nil when the upgrade failed
    /// (after the user has read why).
    private static func openShowingUpgrade(_ stack: UnCloudNotesStack, on screen: TerminalScreen) throws -> ManagedObjectContext? {
        var state = MigrationScreenState(storePath: stack.storeURL.path)
        let show = {
            let size = screen.size
            screen.draw(state.render(width: size.columns, height: size.rows))
        }
        do {
            let context = try stack.open { event in
                state.apply(event)
                show()
            }
            // The user sees what happened, and where the backup is, before the notes.
            if state.finished { _ = screen.readKey() }
            return context
        } catch where !state.finished {
            state.failure = "\(error)"
            show()
            _ = screen.readKey()
            return nil
        }
    }
}

/// Edits text in `$VISUAL` or `$EDITOR` (else `vi`), with the terminal handed over meanwhile.
enum ExternalEditor {
    static func edit(_ text: String, environment: [String: String], screen: TerminalScreen) -> (text: String?, error: String?) {
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            try Data(text.utf8).write(to: file)
            let status = try screen.suspended { () throws -> Int32 in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "\(editor) \"$1\"", "editor", file.path]
                try process.run()
                process.waitUntilExit()
                return process.terminationStatus
            }
            guard status == 0 else { return (nil, "the editor (\(editor)) exited with status \(status); the body is unchanged") }
            return (try String(contentsOf: file, encoding: .utf8), nil)
        } catch {
            return (nil, "cannot run the editor (\(editor)): \(error.localizedDescription)")
        }
    }
}
