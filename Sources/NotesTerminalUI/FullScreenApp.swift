import Foundation
import UnCloudNotesKit

/// Runs the full-screen app on a real terminal: the migration screen when the store needs
/// upgrading, then the notes. The terminal is restored however this ends.
public enum FullScreenApp {
    /// - Parameters:
    ///   - logFile: where standard error goes while the app owns the terminal (the SQL log of
    ///     `--sql-debug`, library warnings); nil discards it. Anything written there would otherwise
    ///     land on the screen.
    ///   - askBeforeCreating: a missing store is created only when the user says so (a store path
    ///     typed on the command line may be mistyped); no asks nothing (the default store).
    ///   - banner: a line shown above every screen (the walkthrough's step).
    ///   - images: how previews draw images; `auto` asks the terminal (`GraphicsDetection`).
    ///   - syncOnOpen: start a sync as the list appears, as `S` does (the config file's choice).
    /// - Returns: the process exit code (0; 1 after a failed upgrade; 130 after a cancelled one).
    public static func run(stack: UnCloudNotesStack, logFile: URL? = nil, askBeforeCreating: Bool = false, banner: String? = nil,
                           images: ImageMode = .auto, syncOnOpen: Bool = false,
                           environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int32 {
        // Said on standard error once the terminal is restored (this runs after the other defers).
        var farewell: String?
        defer {
            // A terminal that hung up refuses the line (EIO): the draft is kept all the same.
            if let farewell { _ = (farewell + "\n").withCString { write(STDERR_FILENO, $0, strlen($0)) } }
        }
        DisplayWidth.configureLocale()
        // Asked before ncurses starts, so the terminal's replies never arrive as keys.
        let detection = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
            ? TerminalQueries.detect(images, environment: environment) : GraphicsDetection.Decision(graphics: .symbols)
        let screen = try TerminalScreen(environment: environment, keepingCellsInPlace: detection.graphics.drawsPixelsInCells)
        screen.graphics = detection.graphics
        if detection.awaitsLateReplies { screen.expectLateReplies() }
        defer { screen.stop() }
        let log = try StandardErrorRedirection(to: logFile)
        defer { log.restore() }
        if askBeforeCreating, !stack.storeExists, !CreateStoreQuestion.ask(storePath: stack.storeURL.path, on: screen) { return 0 }
        let book: NoteBook
        switch try UpgradeScreen.open(stack, on: screen) {
        case .opened(let opened): book = opened
        case .ended(let code): return code
        }
        let app = NotesApp(book: book, storePath: stack.storeURL.path, versionLabel: book.capabilities.version, colors: screen.colors,
                           banner: banner, graphics: detection.graphics)
        let runner = NotesEffectRunner(book: book, terminal: ScreenEffects(screen: screen, environment: environment))
        let notices = [screen.notice, detection.notice].compactMap { $0 }
        if !notices.isEmpty { runner.perform(app.receive(.notice(notices.joined(separator: "; "))), on: app) }
        // The first screen is painted before the background work launch asks for starts (the rest
        // of the list, the sync status, the sync), so it does not share the cores with them.
        runner.perform(app.handle(.resize(columns: screen.size.columns, rows: screen.size.rows)) + app.launch(syncing: syncOnOpen), on: app)
        screen.deferTermination()
        while true {
            // What arrived may show other notes: their reads run before the frame is drawn.
            if let arrived = app.receiveBackgroundWork() { runner.perform(arrived, on: app) }
            screen.draw(app.frame().render())
            runner.perform(app.receive(.frameDrawn), on: app)
            // While a search or a preview is made, wake often to show it; otherwise, idle for a
            // second means looking for changes other processes made to the store.
            let waiting = app.isWaitingForBackgroundWork
            let key = screen.readKey(timeoutMilliseconds: waiting ? 30 : 1000)
            if let signal = screen.terminationSignal {
                farewell = keepUnsavedText(of: app, environment: environment)
                return 128 + signal
            }
            guard let key else {
                if !waiting { runner.perform(app.catchUpWithStore(), on: app) }
                continue
            }
            if runner.perform(app.handle(key), on: app).contains(.quit) {
                finishSync(of: app, runner: runner, on: screen)
                return 0
            }
        }
    }

    /// A closed terminal or a shutdown (SIGHUP, SIGTERM) ends the app without asking, so what the
    /// user typed and had not saved is kept as a draft first. - Returns: the line saying where.
    private static func keepUnsavedText(of app: NotesApp, environment: [String: String]) -> String? {
        guard let text = app.unsavedText else { return nil }
        do {
            let kept = try Drafts.keep(Data(text.utf8), named: "note.txt", in: StoreLocation.draftsFolder(environment: environment))
            return "uncloudnotes: your unsaved note is kept in \(kept.path)"
        } catch {
            return "uncloudnotes: your unsaved note could not be kept: \(error)"
        }
    }

    /// Quitting while a sync runs waits for it (a kill would be safe, but its push would not
    /// happen), saying so; keys meanwhile are dropped.
    private static func finishSync(of app: NotesApp, runner: NotesEffectRunner, on screen: TerminalScreen) {
        guard app.isSyncing else { return }
        runner.perform(app.receive(.notice("finishing the sync before quitting…")), on: app)
        screen.draw(app.frame().render())
        while app.isSyncing { _ = screen.readKey(timeoutMilliseconds: 100) }
    }
}
