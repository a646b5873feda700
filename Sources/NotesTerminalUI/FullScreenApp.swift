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
        let app = try NotesApp(book: book, storePath: stack.storeURL.path, versionLabel: stack.versionLabel, colors: screen.colors)
        app.banner = banner
        let runner = NotesEffectRunner(book: book)
        app.graphics = detection.graphics
        let notices = [screen.notice, detection.notice].compactMap { $0 }
        app.state.message = notices.isEmpty ? nil : notices.joined(separator: "; ")
        runner.perform(app.handle(.resize(columns: screen.size.columns, rows: screen.size.rows)), on: app)
        // The first screen is painted before the rest of the list is read.
        app.startPreviews()
        screen.draw(app.frame().render())
        _ = runner.perform(app.afterFirstPaint(), on: app)
        if syncOnOpen { app.startSync() }
        while true {
            // What arrived may show other notes: their reads run before the frame is drawn.
            if let effects = app.receiveBackgroundWork() { runner.perform(effects, on: app) }
            app.startPreviews()
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
                    finishSync(of: app, on: screen)
                    return 0
                case .openEditor(let text):
                    let event: NotesEvent
                    do {
                        event = .edited(try ExternalEditor.fromEnvironment(environment).edit(text) { run in try screen.suspended(run) })
                    } catch {
                        event = .editorFailed("\(error)")
                    }
                    _ = runner.perform(app.receive(event), on: app)
                case .openImage(let data, let name):
                    _ = runner.perform(app.receive(.imageOpened(ImageViewer.open(data, named: name, environment: environment))), on: app)
                default:
                    break
                }
            }
        }
    }

    /// Quitting while a sync runs waits for it (a kill would be safe, but its push would not
    /// happen), saying so; keys meanwhile are dropped.
    private static func finishSync(of app: NotesApp, on screen: TerminalScreen) {
        guard app.isSyncing else { return }
        app.state.message = "finishing the sync before quitting…"
        screen.draw(app.frame().render())
        while app.isSyncing { _ = screen.readKey(timeoutMilliseconds: 100) }
    }
}
