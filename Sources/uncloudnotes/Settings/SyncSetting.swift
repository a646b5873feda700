import ArgumentParser
import Foundation
import NotesSync
import UnCloudNotesKit

/// When the full-screen app syncs by itself: the config file's `[sync]` table, `on_open` (a
/// sync in the background as the list appears, as `S` does) and `on_quit` (after the screen is
/// given back, saying what moved). Both off by default: a sync reaches the network.
struct SyncSetting {
    var onOpen = false
    var onQuit = false

    static let off = SyncSetting()

    static func fromConfigFile() throws -> SyncSetting {
        do {
            guard let file = try ConfigFile.load() else { return .off }
            return SyncSetting(onOpen: try file.flag("on_open", in: "sync") ?? false, onQuit: try file.flag("on_quit", in: "sync") ?? false)
        } catch {
            StandardError.line("uncloudnotes: \(error)")
            throw ExitCode(2)
        }
    }

    /// The sync on quit, in the foreground: what moved on standard output, a failure as one
    /// line on standard error and exit status 1 (the notes stay in the store; `sync` again).
    static func syncOnQuit(_ stack: UnCloudNotesStack) throws {
        let report: SyncReport
        do {
            let book = try stack.open(creatingIfMissing: false)
            // Closing after the sync saved or rolled back: a failed close loses nothing.
            defer { try? book.context.store.close() }
            report = try Synchronizer(book: book, mirror: Synchronizer.defaultMirror(for: stack.storeURL), machine: nil)
                .sync(remote: nil)
        } catch {
            StandardError.line("uncloudnotes: the sync on quit failed: \(error)")
            throw ExitCode(1)
        }
        try report.lines.map { "sync: " + TerminalText.field($0) }.forEach(StandardOutput.line)
    }
}
