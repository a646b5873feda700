import Foundation
import UnCloudNotesKit

/// Runs the full-screen app on a real terminal: the migration screen when the store needs
/// upgrading, then the notes. The terminal is restored however this ends.
public enum FullScreenApp {
    /// - Parameter logFile: where standard error goes while the app owns the terminal (the SQL
    ///   log of `--sql-debug`, library warnings); nil discards it. Anything written there would
    ///   otherwise land on the screen.
    /// - Returns: the process exit code (0, or 1 after a failed upgrade).
    public static func run(stack: UnCloudNotesStack, logFile: URL? = nil,
                           environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int32 {
        DisplayWidth.configureLocale()
        let screen = try TerminalScreen(environment: environment)
        defer { screen.stop() }
        let log = try StandardErrorRedirection(to: logFile)
        defer { log.restore() }
        guard let book = try openShowingUpgrade(stack, on: screen) else { return 1 }
        let app = try NotesApp(book: book, storePath: stack.storeURL.path, versionLabel: stack.versionLabel, colors: screen.colors)
        let runner = NotesEffectRunner(book: book)
        app.message = screen.notice
        _ = app.handle(.resize(columns: screen.size.columns, rows: screen.size.rows))
        // The first screen is painted before the rest of the list is read.
        screen.draw(app.frame().render())
        _ = runner.perform(app.afterFirstPaint(), on: app)
        while true {
            app.receiveBackgroundWork()
            screen.draw(app.frame().render())
            // While a search runs, wake often to show its matches; otherwise, idle for a second
            // means looking for changes other processes made to the store.
            let waiting = app.isWaitingForBackgroundWork
            guard let key = screen.readKey(timeoutMilliseconds: waiting ? 30 : 1000) else {
                if !waiting { _ = runner.perform(app.catchUpWithStore(), on: app) }
                continue
            }
            for effect in runner.perform(app.handle(key), on: app) {
                switch effect {
                case .quit:
                    return 0
                case .openEditor(let text):
                    let event: NotesEvent
                    do {
                        event = .edited(try ExternalEditor.fromEnvironment(environment).edit(text) { run in try screen.suspended(run) })
                    } catch {
                        event = .editorFailed("\(error)")
                    }
                    _ = runner.perform(app.receive(event), on: app)
                default:
                    break
                }
            }
        }
    }

    /// Opens the store, showing the migration screen while it upgrades; nil when the upgrade failed
    /// (after the user has read why).
    private static func openShowingUpgrade(_ stack: UnCloudNotesStack, on screen: TerminalScreen) throws -> NoteBook? {
        var state = MigrationScreenState(storePath: stack.storeURL.path)
        let show = {
            let size = screen.size
            screen.draw(state.render(width: size.columns, height: size.rows))
        }
        do {
            let book = try stack.open { event in
                state.apply(event)
                show()
            }
            // The user sees what happened, and where the backup is, before the notes.
            if state.finished { waitForKeyPress(on: screen, redrawing: show) }
            return book
        } catch where !state.finished {
            state.failure = "\(error)"
            show()
            waitForKeyPress(on: screen, redrawing: show)
            return nil
        }
    }

    /// Waits for a real key: a resize redraws the screen and goes on waiting.
    private static func waitForKeyPress(on screen: TerminalScreen, redrawing draw: () -> Void) {
        while true {
            switch screen.readKey() {
            case .resize?: draw()
            default: return
            }
        }
    }
}
