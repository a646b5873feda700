import Foundation
import ManagedStore
import UnCloudNotesKit

/// Opens the store for the app, showing the migration screen while it upgrades: progress, time,
/// a log that scrolls (with each pass's objects and time per entity mapping), what the running step
/// changes, `?` for the kinds of steps, and Ctrl-C to cancel (asked first; the store is then left as it was).
enum UpgradeScreen {
    enum Outcome {
        case opened(NoteBook)
        /// The app ends here with this exit code (after a failed or cancelled upgrade, read by the user).
        case ended(exitCode: Int32)
    }

    /// The exit code after a cancelled upgrade: 128 + SIGINT, as for a command stopped by Ctrl-C.
    static let cancelledExitCode: Int32 = 130

    static func open(_ stack: UnCloudNotesStack, on screen: TerminalScreen) throws -> Outcome {
        // A read-only store of an older version is read as it is: there is no upgrade to show.
        if try stack.versionReadWithoutUpgrade() != nil { return .opened(try stack.open()) }
        var state = MigrationScreenState(storePath: stack.storeURL.path)
        let upgrade = BackgroundUpgrade(migrator: stack.migrator)
        let started = Date()
        upgrade.start()
        var shown = false
        var outcome: Result<Void, any Error>
        while true {
            // Until the upgrade says anything (most launches need none) keys are left for the app.
            let news = upgrade.take(waitingUpTo: shown ? 0 : 0.1)
            if !state.finished { state.elapsed = Date().timeIntervalSince(started) }
            news.events.forEach { state.apply($0) }
            shown = shown || !news.events.isEmpty
            if let result = news.outcome {
                // A question still open is moot: the upgrade is over.
                state.asking = false
                outcome = result
                break
            }
            guard shown else { continue }
            draw(state, on: screen)
            if let key = screen.readKey(timeoutMilliseconds: 100) { answer(key, state: &state, upgrade: upgrade, size: screen.size) }
        }
        do {
            try outcome.get()
        } catch MigrationError.cancelled {
            state.cancelled = true
            waitForKeyPress(on: screen, state: &state)
            return .ended(exitCode: cancelledExitCode)
        } catch {
            state.failure = "\(error)"
            waitForKeyPress(on: screen, state: &state)
            return .ended(exitCode: 1)
        }
        do {
            let book = try stack.open()
            // The user sees what happened, and where the backup is, before the notes.
            if state.finished { waitForKeyPress(on: screen, state: &state) }
            return .opened(book)
        } catch where !state.finished {
            state.failure = "\(error)"
            waitForKeyPress(on: screen, state: &state)
            return .ended(exitCode: 1)
        }
    }

    /// A key while the upgrade runs: Ctrl-C asks (the upgrade waits for the answer); y or Ctrl-C
    /// again cancels, any other key goes on; the arrows and pages scroll the log.
    private static func answer(_ key: Key, state: inout MigrationScreenState, upgrade: BackgroundUpgrade,
                               size: (rows: Int, columns: Int)) {
        if case .resize = key { return }
        if state.asking {
            let cancel = switch key {
            case .character(let answer): UpgradeCancelQuestion.cancels(answer)
            case .control("c"): UpgradeCancelQuestion.cancels("\u{03}")
            default: false
            }
            state.asking = false
            state.cancelling = cancel
            upgrade.resume(cancelling: cancel)
        } else if key == .control("c"), !state.cancelling {
            state.asking = true
            upgrade.pause()
        } else if key == .character("?") {
            state.showsStepKinds.toggle()
        } else {
            _ = state.scrollLog(key, width: size.columns, height: size.rows)
        }
    }

    private static func draw(_ state: MigrationScreenState, on screen: TerminalScreen) {
        let size = screen.size
        screen.draw(state.render(width: size.columns, height: size.rows))
    }

    /// Waits for a key that is not a resize or a scroll of the log, redrawing meanwhile.
    private static func waitForKeyPress(on screen: TerminalScreen, state: inout MigrationScreenState) {
        while true {
            draw(state, on: screen)
            guard let key = screen.readKey() else { continue }
            if case .resize = key { continue }
            if key == .character("?"), state.plan != nil {
                state.showsStepKinds.toggle()
                continue
            }
            let size = screen.size
            if !state.scrollLog(key, width: size.columns, height: size.rows) { return }
        }
    }
}
