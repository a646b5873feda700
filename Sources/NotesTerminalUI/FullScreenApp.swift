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
        guard try upgrade(stack, on: screen) else { return 1 }
        let book = NoteBook(context: try stack.open())
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

    /// Shows the migration screen while the store upgrades; false when it failed (after the user
    /// has read why).
    private static func upgrade(_ stack: UnCloudNotesStack, on screen: TerminalScreen) throws -> Bool {
        var state = MigrationScreenState(storePath: stack.storeURL.path)
        let show = {
            let size = screen.size
            screen.draw(state.render(width: size.columns, height: size.rows))
        }
        do {
            switch try stack.migrator.state() {
            case .needsMigration:
                try FileManager.default.createDirectory(at: stack.storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
                try stack.migrator.migrateIfNeeded { event in
                    state.apply(event)
                    show()
                }
                // The user sees what happened, and where the backup is, before the notes.
                _ = screen.readKey()
            case .newer, .unknown:
                _ = try stack.migrator.migrateIfNeeded()
            case .missing, .current:
                break
            }
            return true
        } catch {
            state.failure = "\(error)"
            show()
            _ = screen.readKey()
            return false
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
